// The chat launcher's look (Settings → Website), as the widget's public shop answer carries it.
import type { FastifyInstance } from 'fastify';

export async function widgetLook(app: Pick<FastifyInstance, 'settings'>, sellerId: string) {
  const website = (await app.settings.effective(sellerId)).website;
  return {
    colour: website.widgetColour,
    textColour: website.widgetTextColour,
    greeting: website.widgetGreeting,
    position: website.widgetPosition,
  };
}
