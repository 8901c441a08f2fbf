// Help chats (issue 5): the public widget, the back-office inbox and the seller's FAQ, all under
// /api/v1/queryBot, sharing one publisher (broker + the customers' live streams).
import type { FastifyInstance } from 'fastify';
import { backofficeRoutes } from './backoffice-routes';
import { faqRoutes } from './faq-routes';
import { createChatPublisher, WidgetStreams } from './publish';
import { type WidgetLimits, widgetRoutes } from './widget-routes';

export async function helpChatRoutes(
  app: FastifyInstance,
  options: { widgetLimits?: Partial<WidgetLimits> } = {},
) {
  const streams = new WidgetStreams();
  const publish = createChatPublisher(app, streams);
  await app.register(widgetRoutes, { prefix: '/widget', streams, publish, limits: options.widgetLimits });
  await app.register(backofficeRoutes, { publish });
  await app.register(faqRoutes);
}
