// `npm run settings:reference`: writes docs/operations/settings.md from the schemas in lib/env/ (their .describe()
// texts and defaults). lib/env/reference.test.ts fails until the committed file is what this writes.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { SETTINGS_REFERENCE_FILE, settingsReference } from "../lib/env/reference";

mkdirSync(path.dirname(SETTINGS_REFERENCE_FILE), { recursive: true });
writeFileSync(SETTINGS_REFERENCE_FILE, settingsReference());
console.log(`wrote ${SETTINGS_REFERENCE_FILE}`);
