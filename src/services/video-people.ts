// The people the signed-in user may video call (the header's picker): GET listPeople, paged and
// searched on the server.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  VIDEO_PEOPLE_PATH,
  type VideoPeopleQuery,
  type VideoPeopleResponse,
  videoPeopleResponseSchema,
} from '../../contracts/video-calls';
import { http } from './http';

export async function listVideoPeople(query: VideoPeopleQuery): Promise<VideoPeopleResponse['data']> {
  const response = await http.get(VIDEO_PEOPLE_PATH, { params: query });
  return videoPeopleResponseSchema.parse(response.data).data;
}

export const videoPeopleQuery = (query: VideoPeopleQuery) =>
  queryOptions({
    queryKey: ['video-people', query] as const,
    queryFn: () => listVideoPeople(query),
    // Who is online changes: a picker opened again asks again.
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
