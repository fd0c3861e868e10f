/**
 * `npm run offers -- <command>`: see cli-commands.ts for the commands.
 */
import { getOffersEnv } from "../env/offers";
import { EnvError } from "../env/parse";
import { runOffersCli } from "./cli-commands";

async function main(argv: string[]): Promise<number> {
  let env;
  try {
    env = getOffersEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
  return runOffersCli(argv, env, { out: (line) => console.log(line), err: (line) => console.error(line) });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
