// Help chats (issue 5): the public widget, the back-office inbox and the seller's FAQ, all under
// /api/v1/queryBot, sharing one publisher; the customers' live streams hear the broker.
import type { FastifyInstance } from 'fastify';
import { backofficeRoutes } from './backoffice-routes';
import { faqRoutes } from './faq-routes';
import { createChatPublisher, relayChatEventsToStreams, WidgetStreams } from './publish';
import { type WidgetLimits, widgetRoutes } from './widget-routes';

export async function helpChatRoutes(
  app: FastifyInstance,
  options: { widgetLimits?: Partial<WidgetLimits> } = {},
) {
  const streams = new WidgetStreams();
  await relayChatEventsToStreams(app, streams);
  const publish = createChatPublisher(app);
  await app.register(widgetRoutes, { prefix: '/widget', streams, publish, limits: options.widgetLimits });
  await app.register(backofficeRoutes, { publish });
  await app.register(faqRoutes);
}
