// A seller's KYC documents: list, upload and download. One implementation for both who use them — an
// admin in Manage Sellers (any seller) and a seller on their own dashboard (their own seller only; the
// server decides which, see server/modules/sellers/access.ts).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SellerDocument, SellerDocumentKind } from '../../contracts/seller-admin';
import { saveBlob } from './downloads';
import { ApiError, http, toApiError } from './http';

const BASE = '/api/v1/sellers';

export const sellerDocumentKeys = {
  all: ['seller-documents'] as const,
  list: (sellerId: string) => [...sellerDocumentKeys.all, sellerId] as const,
};

// The panel shows a failure in place (with a retry), so it is not toasted as well.
export const useSellerDocuments = (sellerId: string) =>
  useQuery({
    queryKey: sellerDocumentKeys.list(sellerId),
    queryFn: async ({ signal }): Promise<{ result: SellerDocument[] }> =>
      (await http.get(`${BASE}/getSellerDocuments/${sellerId}`, { signal, silent: true })).data,
  });

export interface UploadDocumentInput {
  sellerId: string;
  kind: SellerDocumentKind;
  file: File;
}

/**
 * Uploads one document and refreshes that seller's list. `onUploaded` lets the page refresh what else
 * an upload touches for it (Manage Sellers: the seller's history and the lists).
 */
export function useUploadDocument(options: { onUploaded?: (document: SellerDocument) => unknown } = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: UploadDocumentInput): Promise<SellerDocument> => {
      const form = new FormData();
      form.append('file', input.file);
      // The form shows the failure next to the upload, so it is silent.
      return (
        await http.post(`${BASE}/uploadSellerDocument`, form, {
          params: { sellerId: input.sellerId, kind: input.kind },
          silent: true,
        })
      ).data;
    },
    onSuccess: async (document, input) => {
      await client.invalidateQueries({ queryKey: sellerDocumentKeys.list(input.sellerId) });
      await options.onUploaded?.(document);
    },
  });
}

/**
 * Downloads a document through the authorised client (a plain link would carry no token) and hands it
 * to the browser as a file. A failure's body is a Blob here; its `{ message }` is read back out.
 */
export async function downloadDocument(document: SellerDocument): Promise<void> {
  let blob: Blob;
  try {
    blob = (await http.get(`${BASE}/documents/${document.id}`, { responseType: 'blob', silent: true })).data;
  } catch (error) {
    const apiError = toApiError(error);
    if (apiError.data instanceof Blob) {
      const body = await apiError.data.text().catch(() => '');
      let message = apiError.message;
      try {
        message = (JSON.parse(body) as { message?: string }).message || message;
      } catch {
        // Not JSON: keep the generic wording.
      }
      throw new ApiError({ message, status: apiError.status, code: apiError.code });
    }
    throw apiError;
  }
  saveBlob(blob, document.fileName);
}
