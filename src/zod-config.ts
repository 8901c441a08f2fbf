// zod compiles its object parsers with `new Function` after probing once whether it may. This app's
// Content-Security-Policy has no 'unsafe-eval', so the probe itself is a CSP violation on every page.
// zod reads this global when it first loads (the first import of main.tsx sets it before any chunk
// that holds zod runs); its parsers then stay interpreted, which is fast enough for forms and answers.
(globalThis as { __zod_globalConfig?: Record<string, unknown> }).__zod_globalConfig = { jitless: true };
