// The chat launcher's look (Settings → Website), as the widget's public shop answer carries it. The text
// colour is the one that reads on the widget colour (black or white when the chosen one would not reach
// WCAG AA), so public/widget.js's launcher and the chat page paint the same, without a copy of the maths.
import type { FastifyInstance } from 'fastify';
import { readableTextOn } from '../../../contracts/domain/colour-contrast';

export async function widgetLook(app: Pick<FastifyInstance, 'settings'>, sellerId: string) {
  const website = (await app.settings.effective(sellerId)).website;
  return {
    colour: website.widgetColour,
    textColour: readableTextOn(website.widgetColour, website.widgetTextColour),
    greeting: website.widgetGreeting,
    position: website.widgetPosition,
  };
}
