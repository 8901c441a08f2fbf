/*
 * Help chat on a storefront: one tag adds a chat button that opens the seller's help chat.
 *   <script src="https://BACK-OFFICE-HOST/widget.js" data-seller="SELLER-CODE" async></script>
 * Plain script, no dependencies. The chat page (/chat/{sellerCode}) loads in an iframe only when the
 * button is first pressed, so the storefront pays nothing until a customer wants to chat.
 */
(() => {
  const ROOT_ID = 'mp-help-chat';
  if (document.getElementById(ROOT_ID)) return; // the tag was included twice
  const script =
    document.currentScript || document.querySelector('script[data-seller][src*="widget.js"]');
  const seller = script?.getAttribute('data-seller');
  if (!seller) {
    console.warn('Help chat: add data-seller="YOUR-SELLER-CODE" to the widget.js script tag.');
    return;
  }
  const chatUrl = `${new URL(script.src, location.href).origin}/chat/${encodeURIComponent(seller)}`;

  const root = document.createElement('div');
  root.id = ROOT_ID;
  Object.assign(root.style, { position: 'fixed', right: '16px', bottom: '16px', zIndex: '2147483000' });

  const button = document.createElement('button');
  button.type = 'button';
  button.setAttribute('aria-expanded', 'false');
  Object.assign(button.style, {
    width: '56px',
    height: '56px',
    borderRadius: '50%',
    border: 'none',
    cursor: 'pointer',
    background: '#2563eb',
    color: '#fff',
    fontSize: '26px',
    lineHeight: '56px',
    boxShadow: '0 4px 14px rgba(0,0,0,.25)',
    float: 'right',
  });

  const look = { greeting: 'Chat with us' };
  let frame = null;
  const setOpen = (open) => {
    if (open && !frame) {
      frame = document.createElement('iframe');
      frame.src = chatUrl;
      frame.title = 'Help chat';
      Object.assign(frame.style, {
        display: 'block',
        width: 'min(380px, calc(100vw - 32px))',
        height: 'min(560px, calc(100vh - 104px))',
        marginBottom: '12px',
        border: 'none',
        borderRadius: '12px',
        background: '#fff',
        boxShadow: '0 8px 30px rgba(0,0,0,.25)',
      });
      root.insertBefore(frame, button);
    }
    if (frame) frame.style.display = open ? 'block' : 'none';
    button.setAttribute('aria-expanded', String(open));
    button.setAttribute('aria-label', open ? 'Close the chat' : look.greeting);
    button.textContent = open ? '\u00d7' : '\u{1F4AC}';
  };
  button.addEventListener('click', () => setOpen(button.getAttribute('aria-expanded') !== 'true'));
  setOpen(false);

  // The look from Settings → Website (colour, text colour, greeting, corner); the defaults until it
  // arrives or when the shop's answer is refused (CORS: this site is not one the shop allows).
  fetch(`${new URL(script.src, location.href).origin}/api/v1/queryBot/widget/${encodeURIComponent(seller)}`)
    .then((response) => (response.ok ? response.json() : null))
    .then((shop) => {
      const found = shop?.look;
      if (!found) return;
      look.greeting = found.greeting || look.greeting;
      Object.assign(button.style, { background: found.colour, color: found.textColour });
      if (found.position === 'bottom-left') {
        Object.assign(root.style, { right: '', left: '16px' });
        button.style.float = 'left';
      }
      if (button.getAttribute('aria-expanded') !== 'true') button.setAttribute('aria-label', look.greeting);
      button.title = look.greeting;
    })
    .catch(() => {});

  root.appendChild(button);
  // An async tag in <head> may run before <body> exists.
  const mount = () => document.body.appendChild(root);
  if (document.body) mount();
  else document.addEventListener('DOMContentLoaded', mount);
})();
