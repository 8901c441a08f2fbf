// The node flags the server runs with, wherever it runs as in production: `npm start` (package.json
// spells them out, and a test keeps the two equal), the e2e server and the benchmarks' servers.
//
// --max-old-space-size=1024: a 1 GB ceiling for the server's JavaScript heap. Without one, V8 sizes it
// for the machine (about 4 GB here) and lets the heap grow to 4× its live size between full
// collections; below 2 GB it grows by at most 1.3–2×. A 100,000-row import allocates ~50 KB of
// short-lived objects per row; measured (bench `imports`, and a 30k-row run in one process): the heap
// peaked at ~500 MB for ~75 MB live without the ceiling, ~175 MB with it, at the same speed. The live
// heap of a busy server stays far below 1 GB (idle ~70 MB, `server` in bench/results.json).
export const SERVER_NODE_ARGS = ['--max-old-space-size=1024'];
