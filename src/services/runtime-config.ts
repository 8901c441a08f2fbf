// Runtime client configuration (ARCHITECTURE.md: feature flags and addresses come from the server at run
// time, not baked into the bundle): GET /api/v1/globalConfigs/runtime, one fetcher + query + hook.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { type RuntimeConfig, runtimeConfigSchema } from '../../contracts/runtime-config';
import { http } from './http';

export type { RuntimeConfig } from '../../contracts/runtime-config';

export async function getRuntimeConfig(): Promise<RuntimeConfig> {
  return runtimeConfigSchema.parse((await http.get('/api/v1/globalConfigs/runtime', { silent: true })).data);
}

export const runtimeConfigQuery = () =>
  queryOptions({
    queryKey: ['runtime-config'] as const,
    queryFn: getRuntimeConfig,
    // Changes only with a server restart; a reload picks that up.
    staleTime: Number.POSITIVE_INFINITY,
  });

export const useRuntimeConfig = () => useQuery(runtimeConfigQuery());
