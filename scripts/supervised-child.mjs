// Loaded (--import) into the server that scripts/supervise.mjs runs: when the supervisor goes away
// without stopping it first (killed outright), the IPC channel closes, and the server stops as SIGTERM
// stops it, closing the database cleanly, instead of living on unsupervised.
process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'));
// The channel alone must not keep a server that is stopping alive.
process.channel?.unref();
