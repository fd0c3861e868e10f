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
  // Long enough for the failed writes' errors to come back, and to loop without the guard.
  setTimeout(() => process.send!({ uncaught }), 300);
});
process.send!("ready");
