// Searched options for the choosers (src/ui/choosers.tsx) several pages share: sellers by name or code,
// back-office people by name or e-mail, and a seller's products by title or SKU. Each is one page of
// server results; the previous options stay while the next search runs.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { productListSchema } from '../../contracts/catalog';
import { VIDEO_PEOPLE_PATH, videoPeopleResponseSchema } from '../../contracts/video-calls';
import { http } from './http';

export interface Choice {
  value: string;
  label: string;
}

const choiceKeys = {
  sellers: (text: string) => ['choices', 'sellers', text] as const,
  people: (text: string) => ['choices', 'people', text] as const,
  products: (sellerId: string | null, text: string) => ['choices', 'products', sellerId, text] as const,
};

const optionsSchema = z.object({ result: z.array(z.object({ value: z.string(), label: z.string() })) });
const searched = { placeholderData: keepPreviousData, staleTime: 30_000 } as const;

/** Sellers whose name or code contains the text (the staging pages' searched options). */
export const useSellerChoices = (text: string, enabled: boolean) =>
  useQuery({
    queryKey: choiceKeys.sellers(text),
    queryFn: async ({ signal }): Promise<Choice[]> =>
      optionsSchema.parse(
        (
          await http.get('/api/v1/stagingProducts/method/options/sellers', {
            params: { q: text, limit: 50 },
            signal,
            silent: true,
          })
        ).data,
      ).result,
    enabled,
    ...searched,
  });

/** People of the back office by name or e-mail (the people the user may reach), e.g. an assignee. */
export const usePeopleChoices = (text: string, enabled: boolean) =>
  useQuery({
    queryKey: choiceKeys.people(text),
    queryFn: async ({ signal }): Promise<Choice[]> =>
      videoPeopleResponseSchema
        .parse(
          (await http.get(VIDEO_PEOPLE_PATH, { params: { search: text, limit: 50 }, signal, silent: true }))
            .data,
        )
        .data.result.map((person) => ({ value: person.id, label: `${person.name} (${person.role})` })),
    enabled,
    ...searched,
    retry: false,
  });

/** The seller's products (every product the user may see when none) whose title or SKU contains the text. */
export const useProductChoices = (sellerId: string | null, text: string, enabled: boolean) =>
  useQuery({
    queryKey: choiceKeys.products(sellerId, text),
    queryFn: async ({ signal }): Promise<Choice[]> =>
      productListSchema
        .parse(
          (
            await http.post(
              '/api/v1/stagingProducts/method/search',
              {
                search: text,
                limit: 20,
                query: {
                  combinator: 'and',
                  children: sellerId ? [{ field: 'seller', op: 'anyOf', value: [sellerId] }] : [],
                },
              },
              { signal, silent: true },
            )
          ).data,
        )
        .result.map((product) => ({ value: product.id, label: `${product.title} (${product.sku})` })),
    enabled,
    ...searched,
    retry: false,
  });
