// Settings → Content on the public pages a mail links to (/unsubscribe, /responseCollection): the
// marketplace's text for the page in the reader's language (else English; empty: the page keeps its
// built-in wording), as plain text — the page shows it as text, never as markup — and the links back to
// the storefront (Website) and to the terms (Content), each only when set.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { plainTextOf } from '../mail-templates/render';
import { localizedHtml, requestLanguage } from './texts';

export const pageTextsSchema = z.object({
  text: z.string(),
  storefrontUrl: z.string().nullable(),
  termsUrl: z.string().nullable(),
});

const pageFields = { unsubscribe: 'unsubscribeText', response: 'responsePageText' } as const;

export async function pageTextsRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/pageTexts',
    {
      config: { public: true },
      schema: {
        tags: ['mail-links'],
        summary: "The marketplace's text and links for a public page a mail links to",
        querystring: z.object({
          page: z.enum(['unsubscribe', 'response']),
          language: z
            .string()
            .regex(/^[A-Za-z]{2}$/, 'language is a two-letter code')
            .optional(),
        }),
        response: { 200: pageTextsSchema },
      },
    },
    async (request) => {
      const { content, website } = await app.settings.effective(null);
      const language = request.query.language ?? requestLanguage(request.headers['accept-language']);
      const html = localizedHtml(content[pageFields[request.query.page]], language);
      return {
        text: html ? plainTextOf(html) : '',
        storefrontUrl: website.storefrontUrl || null,
        termsUrl: content.termsUrl || null,
      };
    },
  );
}
