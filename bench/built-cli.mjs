// The ideas-contract command from the build in dist/ (`npm run build`), as the installed package runs it. In the
// repository bin/ideas-contract.js runs the TypeScript sources through tsx instead, whose output names every
// function it makes (a property definition per closure made, several per exchange on the proxy's path): a cost
// users never pay. Benchmarks that measure what users run start this (bench/lib.ts checks the build is current).
import { main } from "../dist/cli/main.js";

process.exitCode = await main(process.argv.slice(2));
