import { createPartnerClient } from "../../client.js";
import { type CliIo, EXIT, output } from "../io.js";
import { CONNECTION_HELP, CONNECTION_OPTIONS, clientOptionsOf, parse } from "../options.js";

const LOGIN_HELP = `Usage: orderline-partner login [--json]

Logs in with the client credentials and prints the access token and its expiry: a check that
credentials and gateway address are right, and a token for hand-made requests.

${CONNECTION_HELP}`;

export async function loginCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parse(args, CONNECTION_OPTIONS, LOGIN_HELP);
  if (values.help) {
    io.stdout(LOGIN_HELP);
    return EXIT.ok;
  }
  const options = clientOptionsOf(io, values);
  const { token, expired_at } = await createPartnerClient(options).login();
  output(
    io,
    values.json === true,
    { client_id: options.clientId, token, expired_at },
    `Logged in as ${options.clientId}; the token expires at ${new Date(expired_at * 1000).toISOString()}.\n${token}\n`,
  );
  return EXIT.ok;
}
