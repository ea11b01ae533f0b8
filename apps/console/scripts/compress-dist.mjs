// Writes a brotli (.br) and a gzip (.gz) copy next to every text file of dist/, once at build
// time at the highest levels, so the gateway serves them as they are (@fastify/static's
// preCompressed) instead of compressing each response or sending the bytes uncompressed.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

// The console's dist/, or the directory given (the gateway's tests compress their own fixture).
const DIST = process.argv[2] ?? fileURLToPath(new URL("../dist/", import.meta.url));
const TEXT = /\.(?:js|css|html|svg|json|map|txt)$/;

let files = 0;
for (const entry of readdirSync(DIST, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !TEXT.test(entry.name)) continue;
  const path = join(entry.parentPath, entry.name);
  const bytes = readFileSync(path);
  writeFileSync(
    `${path}.br`,
    brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
  );
  writeFileSync(`${path}.gz`, gzipSync(bytes, { level: 9 }));
  files++;
}
console.log(`compress-dist: ${files} files precompressed (.br, .gz)`);
