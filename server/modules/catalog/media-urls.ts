/** Where a product media file and its derivatives are served (catalog routes, signed-in users). */
export function mediaUrls(id: string) {
  const base = `/api/v1/stagingProducts/media/${id}`;
  return { url: base, thumbUrl: `${base}?size=thumb`, webUrl: `${base}?size=web` };
}
