import {
  type PartnerKeyRow,
  type PartnerRow,
  type SigningKeyRow,
  toPartner,
  toPartnerKey,
  toSigningKey,
} from "./rows.js";
import type { SqlRunner } from "./sql-runner.js";
import type {
  PartnerKeyRecord,
  PartnerRecord,
  PartnerStatus,
  SignatureVersion,
  SigningKeyRecord,
} from "./store.js";

/**
 * Partners, their keys, the gateway's signing keys and refresh-once records: SQL written once in
 * `?` placeholders for both stores (each passes its runner). Both stores extend it and add what
 * differs for real reasons: how orders are written.
 */
export abstract class SqlCredentialStore {
  constructor(protected readonly sql: SqlRunner) {}

  async createPartner(p: PartnerRecord): Promise<void> {
    await this.sql.changes(
      "INSERT INTO partners (id, client_id, name, secret_hash, secret_version, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      [p.id, p.clientId, p.name, p.secretHash, p.secretVersion, p.status, p.createdAt, p.updatedAt],
    );
  }

  async findPartnerByClientId(clientId: string): Promise<PartnerRecord | undefined> {
    const [row] = await this.sql.rows<PartnerRow>("SELECT * FROM partners WHERE client_id = ?", [
      clientId,
    ]);
    return row && toPartner(row);
  }

  async listPartners(): Promise<PartnerRecord[]> {
    const rows = await this.sql.rows<PartnerRow>(
      "SELECT * FROM partners ORDER BY created_at, client_id",
      [],
    );
    return rows.map(toPartner);
  }

  async countPartners(): Promise<number> {
    const [row] = await this.sql.rows<{ n: number }>(
      "SELECT CAST(COUNT(*) AS INTEGER) AS n FROM partners",
      [],
    );
    return row?.n ?? 0;
  }

  async setPartnerStatus(partnerId: string, status: PartnerStatus, at: number): Promise<void> {
    await this.sql.changes("UPDATE partners SET status = ?, updated_at = ? WHERE id = ?", [
      status,
      at,
      partnerId,
    ]);
  }

  async rotatePartnerSecret(
    partnerId: string,
    secretHash: string,
    at: number,
    previousUntil: number | null,
  ): Promise<number> {
    // Assignments in one UPDATE all read the row as it was: the previous hash is the replaced one.
    const [row] = await this.sql.rows<{ secret_version: number }>(
      "UPDATE partners SET previous_secret_hash = CASE WHEN CAST(? AS BIGINT) IS NULL THEN NULL ELSE secret_hash END, previous_secret_until = CAST(? AS BIGINT), secret_hash = ?, secret_version = secret_version + 1, updated_at = ? WHERE id = ? RETURNING secret_version",
      [previousUntil, previousUntil, secretHash, at, partnerId],
    );
    if (row === undefined) throw new Error(`No partner with id ${partnerId}`);
    return row.secret_version;
  }

  async addPartnerKey(k: PartnerKeyRecord): Promise<void> {
    await this.sql.changes(
      "INSERT INTO partner_keys (id, partner_id, fingerprint, public_key_pem, bits, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      [k.id, k.partnerId, k.fingerprint, k.publicKeyPem, k.bits, k.createdAt, k.revokedAt],
    );
  }

  async listPartnerKeys(partnerId: string): Promise<PartnerKeyRecord[]> {
    const rows = await this.sql.rows<PartnerKeyRow>(
      "SELECT * FROM partner_keys WHERE partner_id = ? ORDER BY created_at, id",
      [partnerId],
    );
    return rows.map(toPartnerKey);
  }

  async revokePartnerKey(partnerId: string, keyId: string, at: number): Promise<boolean> {
    const changed = await this.sql.changes(
      "UPDATE partner_keys SET revoked_at = ? WHERE partner_id = ? AND id = ? AND revoked_at IS NULL",
      [at, partnerId, keyId],
    );
    return changed === 1;
  }

  async setPartnerSignatureVersion(
    partnerId: string,
    version: SignatureVersion,
    at: number,
  ): Promise<void> {
    await this.sql.changes(
      "UPDATE partners SET signature_version = ?, updated_at = ? WHERE id = ?",
      [version, at, partnerId],
    );
  }

  async raiseOrderNumberFloor(floor: number, partnerId?: string): Promise<number> {
    return this.sql.changes(
      `UPDATE partners SET orders_issued = ? WHERE orders_issued < ?${partnerId === undefined ? "" : " AND id = ?"}`,
      partnerId === undefined ? [floor, floor] : [floor, floor, partnerId],
    );
  }

  async listSigningKeys(): Promise<SigningKeyRecord[]> {
    const rows = await this.sql.rows<SigningKeyRow>(
      "SELECT * FROM signing_keys ORDER BY created_at, kid",
      [],
    );
    return rows.map(toSigningKey);
  }

  async addSigningKey(k: SigningKeyRecord): Promise<void> {
    await this.sql.changes(
      "INSERT INTO signing_keys (kid, alg, public_jwk, private_key_sealed, created_at, signs_from, retired_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      [k.kid, k.alg, k.publicJwk, k.privateKeySealed, k.createdAt, k.signsFrom, k.retiredAt],
    );
  }

  async retireSigningKey(kid: string, at: number): Promise<void> {
    await this.sql.changes(
      "UPDATE signing_keys SET retired_at = ? WHERE kid = ? AND retired_at IS NULL",
      [at, kid],
    );
  }

  async recordTokenRefresh(
    jti: string,
    partnerId: string,
    newJti: string,
    at: number,
  ): Promise<boolean> {
    const changed = await this.sql.changes(
      "INSERT INTO token_refreshes (jti, partner_id, new_jti, refreshed_at) VALUES (?, ?, ?, ?) ON CONFLICT (jti) DO NOTHING",
      [jti, partnerId, newJti, at],
    );
    return changed === 1;
  }
}
