// Starts the cluster once for the browser flows and stops it after them. When PostgreSQL or Redis does
// not answer, nothing starts: CLUSTER_SKIP carries the reason and every spec skips with it.
import { clusterSkipReason, startCluster } from './cluster.mjs';

export default async function globalSetup() {
  const reason = await clusterSkipReason();
  if (reason) {
    console.warn(reason);
    process.env.CLUSTER_SKIP = reason;
    return undefined;
  }
  const cluster = await startCluster({ spa: true });
  process.env.CLUSTER_DATABASE_URL = cluster.databaseUrl;
  process.env.CLUSTER_S3 = String(cluster.s3);
  for (const instance of Object.values(cluster.instances)) {
    process.env[`CLUSTER_${instance.id.toUpperCase()}`] = instance.base;
    process.env[`CLUSTER_${instance.id.toUpperCase()}_PID`] = String(instance.pid);
  }
  return async () => {
    await cluster.stop();
  };
}
