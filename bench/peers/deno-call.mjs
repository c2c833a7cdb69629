// Sandboxed peer: one `deno run` process per hook call. The spawner grants
// read access to the workflow directory only; the argument arrives on stdin
// and the result is printed as JSON.
//
//   deno run --no-prompt --allow-read=<dir> deno-call.mjs <module> <export> < arg.json
const [module, name] = Deno.args;
const arg = JSON.parse(await new Response(Deno.stdin.readable).text());
const fn = (await import(new URL(module, `file://${Deno.cwd()}/`).href))[name];
console.log(JSON.stringify(await fn(arg)));
