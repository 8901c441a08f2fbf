/*
 * Enquiry form on a storefront: one tag puts the shop's enquiry form (questions and offer requests) where
 * the tag stands.
 *   <script src="https://BACK-OFFICE-HOST/enquiry.js" data-seller="SELLER-CODE" async></script>
 * Optional: data-height="720" (pixels). Plain script, no dependencies. The form (/enquiry/{sellerCode})
 * loads in an iframe; the sites that may show it are Settings → Website's embedding sites.
 */
(() => {
  const script =
    document.currentScript || document.querySelector('script[data-seller][src*="enquiry.js"]');
  if (!script || script.getAttribute('data-mp-enquiry') === 'done') return; // the tag ran already
  script.setAttribute('data-mp-enquiry', 'done');
  const seller = script.getAttribute('data-seller');
  if (!seller) {
    console.warn('Enquiry form: add data-seller="YOUR-SELLER-CODE" to the enquiry.js script tag.');
    return;
  }
  const origin = new URL(script.src, location.href).origin;
  const height = Number.parseInt(script.getAttribute('data-height') || '', 10);
  const frame = document.createElement('iframe');
  frame.src = `${origin}/enquiry/${encodeURIComponent(seller)}`;
  frame.title = 'Enquiry form';
  frame.loading = 'lazy';
  Object.assign(frame.style, {
    display: 'block',
    width: '100%',
    maxWidth: '640px',
    height: `${Number.isFinite(height) && height > 200 ? height : 900}px`,
    border: 'none',
    background: '#fff',
  });
  script.parentNode.insertBefore(frame, script);
})();
