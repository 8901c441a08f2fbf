export declare const root: string;
export declare const HAPROXY_CONFIG: string;
export declare const DEFAULT_PORTS: { balancer: number; a: number; b: number; s3: number };

export interface ClusterInstance {
  id: 'a' | 'b';
  port: number;
  /** The instance itself, bypassing the balancer. */
  base: string;
  dataDir: string;
  readonly pid: number | undefined;
  output(): string;
  running(): boolean;
  start(): Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export interface Cluster {
  /** The balancer's address: what a browser or client uses. */
  balancer: string;
  /** The cluster's own PostgreSQL database. */
  databaseUrl: string;
  /** Whether files go to an S3-compatible server (s3rver installed) or to each instance's DATA_DIR. */
  s3: boolean;
  instances: { a: ClusterInstance; b: ClusterInstance };
  stop(): Promise<void>;
}

export interface ClusterOptions {
  ports?: Partial<typeof DEFAULT_PORTS>;
  databaseUrl?: string;
  redisUrl?: string;
  start?: ('a' | 'b')[];
  env?: Record<string, string>;
  spa?: boolean;
  s3?: boolean;
}

export declare function clusterSkipReason(env?: NodeJS.ProcessEnv): Promise<string | null>;
export declare function ensureHaproxy(): string;
export declare function startCluster(options?: ClusterOptions): Promise<Cluster>;
export declare function balancerReaches(
  cluster: Cluster,
  ids?: ('a' | 'b')[],
  timeoutMs?: number,
): Promise<void>;
