// Writes src/manifest/kserve-crd/inference-service-schema.ts from ../shared/kserve-crd/. Run from the
// repository root:  npx tsx scripts/gen-crd-schema.ts
import { readFile, writeFile } from 'node:fs/promises';
import { CRD_SOURCE, SCHEMA_MODULE, deriveCrdSchema, renderSchemaModule } from './derive-crd-schema.js';

async function main(): Promise<void> {
  const text = renderSchemaModule(deriveCrdSchema(await readFile(CRD_SOURCE, 'utf8')));
  await writeFile(SCHEMA_MODULE, text);
  console.log(`wrote ${SCHEMA_MODULE} (${Buffer.byteLength(text)} bytes)`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
