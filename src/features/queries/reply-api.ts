// The public answer page's two calls (no account: the signed link is the proof). Types only from the
// contract, as the other public pages do, so the page's chunk stays small.
import type { z } from 'zod';
import type { replyPageSchema } from '../../../contracts/queries';
import { http } from '../../services/http';

const BASE = '/api/v1/helperQuery/method/customerReply';

export type ReplyPage = z.infer<typeof replyPageSchema>;
export interface ReplyLink {
  query: string;
  token: string;
}

/** The query the link answers: its number, subject, the customer's name and whether it is open. */
export async function loadReplyPage(link: ReplyLink): Promise<ReplyPage> {
  return (await http.get<ReplyPage>(BASE, { params: link, silent: true })).data;
}

export async function sendCustomerReply(body: ReplyLink & { message: string }): Promise<{ message: string }> {
  return (await http.post<{ message: string }>(BASE, body, { silent: true })).data;
}
