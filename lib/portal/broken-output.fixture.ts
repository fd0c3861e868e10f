// Run by broken-output.test.ts: a process set up as the portal's server is, told when to log.
import { dropFailedOutput } from "./broken-output";

if (process.argv.includes("--guard")) dropFailedOutput();
let uncaught = 0;
// What Next.js's router server registers (node_modules/next/dist/server/lib/router-server.js).
process.on("uncaughtException", (err) => {
  uncaught++;
  console.error("uncaughtException: ", err);
});
process.on("message", () => {
  for (let i = 0; i < 20; i++) {
    console.log(`line ${i}`);
    console.error(`warning ${i}`);
  }
  // Answers once the failures loop (more than the 20 lines could cause each once), or after 2 s: long enough for
  // the failed writes' errors to come back with the guard, and for a loop to show on a loaded machine without it.
  const started = Date.now();
  const check = setInterval(() => {
    if (uncaught <= 20 && Date.now() - started < 2_000) return;
    clearInterval(check);
    process.send!({ uncaught });
  }, 10);
});
process.send!("ready");
