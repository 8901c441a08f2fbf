// Guided tours ("Page guide" in the header): one short guide per page that exists, telling what is on it.
//
// Plain data so pages, tests and a future translation pass can read it without React. A step's `target`
// is a `data-tour` selector on a real control of its page (tour-texts.test.ts checks that each one is
// in its page's source, tests/e2e/tours.spec.ts that it is on screen); the tour shows the step next to
// it, or centred when it has no target. A step that explains an action (`requires`) is shown only to
// users whose permissions on the page include that action, so nobody is told about a button they lack.
//
// A guide is shown only on a page that exists (`available` in contracts/routes.ts) and that the user may
// open: never on "Page not found" or "No access" (`tourFor`). Sellers get guides written for what they
// see. SPEC §2's texts for pages not built yet stay in SPEC_TOUR_TEXTS until those pages exist.
import { canOpenRoute, findRoute, type RouteAction } from '../../../contracts/routes';

export interface TourStep {
  title: string;
  body: string;
  /** CSS selector of the element this step explains, e.g. `[data-tour="export"]`. */
  target?: string;
  /** The action on the page's route this step is about; the step is skipped for users without it. */
  requires?: RouteAction;
}

/** `data-tour` selector helper, so pages and texts agree on one spelling. */
export const tourTarget = (name: string) => `[data-tour="${name}"]`;

/** Who a guide is written for: sellers see their own store's version of a shared page. */
export type TourAudience = 'backOffice' | 'seller';

/** A page's guide: the same for everyone, or one for the back-office and one for sellers. */
export type PageTour = readonly TourStep[] | Readonly<Record<TourAudience, readonly TourStep[]>>;

export const SPEC_TOUR_ROUTES = [
  '/',
  '/products/staging-products',
  '/tags/manage-tags',
  '/marketing/manage-invoices',
  '/marketing/bulk-mails',
  '/marketing/contacts',
  '/queries/queries-request',
  '/subscriptions/subscriptions-request',
  '/customers/offer-requests',
  '/settings/manage-settings',
] as const;

export type SpecTourRoute = (typeof SPEC_TOUR_ROUTES)[number];

/**
 * SPEC §2's guided-tour texts, kept as data for the pages they were written for. Most of those pages are
 * not built yet (`available: false` in contracts/routes.ts): none of them is shown. When a page is built as the SPEC describes it,
 * its entry in PAGE_TOURS takes these steps (with `data-tour` targets on its real controls).
 */
export const SPEC_TOUR_TEXTS: Readonly<Record<SpecTourRoute, readonly TourStep[]>> = {
  '/': [
    {
      title: 'Campaigns dashboard',
      body: 'This is your starting point: how your marketing campaigns are doing, at a glance.',
    },
    {
      title: 'Campaign figures',
      body: 'Each figure sums up one measure across your campaigns. Compare them to see which campaigns work and which need a change.',
      target: tourTarget('campaign-stats'),
    },
    {
      title: 'Notifications and tasks',
      body: 'Long jobs such as imports, exports and bulk mails run in the background. A toast tells you when each one is completed or has failed, and the notifications list keeps them for later.',
      target: tourTarget('notifications'),
    },
    {
      title: 'Find your way',
      body: 'The sidebar shows only the pages your role may open. Use this page guide button on any page that has one to learn what it does.',
      target: tourTarget('sidebar'),
    },
  ],
  '/products/staging-products': [
    {
      title: 'Staging products',
      body: 'Products land here after an import and wait to be checked before they go live. Use the filters to find the ones that need attention.',
    },
    {
      title: 'Match all or any filter',
      body: 'Choose AND to list products that match every filter, or OR to list products that match at least one of them.',
      target: tourTarget('query-type'),
    },
    {
      title: 'Filter by attribute',
      body: 'Enumerated attributes (such as colour or size) let you pick from their known values. Non-enumerated attributes (such as title or price) take a free value and a comparison.',
      target: tourTarget('attribute-filters'),
    },
    {
      title: 'Saved queries',
      body: 'Save a set of filters under a name to run it again in one click, or load a query you saved before.',
      target: tourTarget('saved-queries'),
    },
    {
      title: 'Report',
      body: 'Open a report of the products that match the current filters, for example to see what is missing before publishing.',
      target: tourTarget('report'),
    },
    {
      title: 'Add a product',
      body: 'Create a single product by hand when it did not come in through an import.',
      target: tourTarget('add-product'),
    },
    {
      title: 'Reprocess images',
      body: 'Fetch and process the images of the selected products again, for example after fixing broken image links. It runs in the background and a toast tells you when it is done.',
      target: tourTarget('reprocess-images'),
    },
    {
      title: 'Export and refresh',
      body: 'Export the filtered products to a file, prepared in the background. Refresh reloads the list to show changes made by imports or other users.',
      target: tourTarget('export'),
    },
  ],
  '/tags/manage-tags': [
    {
      title: 'Tag hierarchy',
      body: 'Tags form a tree: each node can have child tags. Expand a node to see its children and select it to edit it.',
      target: tourTarget('tag-tree'),
    },
    {
      title: 'Add a node',
      body: 'Add a new tag under the selected node, or at the top level when nothing is selected.',
      target: tourTarget('add-node'),
    },
    {
      title: 'Calculate node levels',
      body: 'After moving or adding tags, recalculate the level of every node so that depth-based features stay correct. It runs in the background.',
      target: tourTarget('calculate-levels'),
    },
    {
      title: 'Status overview',
      body: 'See how many tags are drafts, changed or published, so you know whether there is anything left to publish.',
      target: tourTarget('status-overview'),
    },
    {
      title: 'Publish and its history',
      body: 'Publish makes your tag changes live on the marketplace. Publish history lists earlier publications, who made them and when.',
      target: tourTarget('publish'),
    },
    {
      title: 'Export',
      body: 'Download the tag hierarchy as a file, for review or to share it outside the back-office.',
      target: tourTarget('export'),
    },
  ],
  // SPEC §2: the invoices page exists but its guide text is empty, so it has no guide.
  '/marketing/manage-invoices': [],
  '/marketing/bulk-mails': [
    {
      title: 'Bulk mails',
      body: 'Send one mail template to many contacts at once. First choose who receives it, then which template and language to send.',
    },
    {
      title: 'Choose the recipients',
      body: 'Filter contacts by country and by company type. The list shows exactly who will receive the mail, so check it before sending.',
      target: tourTarget('contact-filters'),
    },
    {
      title: 'Template and language',
      body: 'Pick the mail template and the language to send it in. Only contacts and templates that match your choices are used.',
      target: tourTarget('template'),
    },
    {
      title: 'Send',
      body: 'Sending runs in the background. A toast tells you when all mails have gone out or if something failed.',
      target: tourTarget('send'),
    },
  ],
  '/marketing/contacts': [
    {
      title: 'Contacts',
      body: 'All your marketing contacts and leads in one list, used as recipients for bulk mails.',
    },
    {
      title: 'Filters',
      body: 'Narrow the list by the fields you need, such as country or company type. Filters combine, and clearing them shows everyone again.',
      target: tourTarget('filters'),
    },
    {
      title: 'Import leads',
      body: 'Upload a sheet of new leads to add them as contacts. The import runs in the background and a toast tells you when it is done.',
      target: tourTarget('lead-import'),
    },
    {
      title: 'Refresh',
      body: 'Reload the list to see contacts added by an import or by other users since you opened the page.',
      target: tourTarget('refresh'),
    },
  ],
  '/queries/queries-request': [
    {
      title: 'Customer queries',
      body: 'Questions sent in by customers and visitors. Each row shows who asked, what they asked and when.',
    },
    {
      title: 'Search',
      body: 'Search by name, e-mail or text to find a query quickly.',
      target: tourTarget('search'),
    },
    {
      title: 'Follow up',
      body: 'Open a query to read it in full, see earlier contact with this person and record how you followed it up.',
      target: tourTarget('query-list'),
    },
  ],
  '/subscriptions/subscriptions-request': [
    {
      title: 'Subscription requests',
      body: 'Sellers’ subscriptions and requests to subscribe. This is where you see who has an active plan and who is waiting for one.',
    },
    {
      title: 'Review a request',
      body: 'Open a request to see the seller and the plan they asked for, then act on it.',
      target: tourTarget('subscription-list'),
    },
    {
      title: 'Blocked sellers',
      body: 'Blocking a subscription stops an existing seller from working in the back-office: when they sign in they are sent to the subscription payment page instead.',
      target: tourTarget('block-subscription'),
    },
  ],
  '/customers/offer-requests': [
    {
      title: 'Offer requests',
      body: 'Customers asking for a price offer on products. Newest requests appear first.',
    },
    {
      title: 'Review a request',
      body: 'Open a request to see the customer, the products and the quantities asked for before you answer.',
      target: tourTarget('offer-list'),
    },
    {
      title: 'Search',
      body: 'Search by customer or product to find a request quickly.',
      target: tourTarget('search'),
    },
  ],
  '/settings/manage-settings': [
    {
      title: 'Settings',
      body: 'Your account and store settings, grouped into sections. Each section is saved on its own.',
    },
    {
      title: 'Profile',
      body: 'Your name, e-mail and picture as other users see them.',
      target: tourTarget('settings-profile'),
    },
    {
      title: 'Localization',
      body: 'Default country, language and currency used for prices, dates and texts.',
      target: tourTarget('settings-localization'),
    },
    {
      title: 'Communication',
      body: 'How and where you receive messages and notifications.',
      target: tourTarget('settings-communication'),
    },
    {
      title: 'Shipping',
      body: 'Shipping options and rules offered to customers.',
      target: tourTarget('settings-shipping'),
    },
    {
      title: 'Website',
      body: 'Settings of the storefront website, such as its address and appearance.',
      target: tourTarget('settings-website'),
    },
    {
      title: 'Company',
      body: 'Legal company details used on invoices and documents: name, address and tax information.',
      target: tourTarget('settings-company'),
    },
    {
      title: 'Content',
      body: 'Texts and pages shown to customers, such as policies and descriptions.',
      target: tourTarget('settings-content'),
    },
  ],
};

const t = tourTarget;

/**
 * The invoice pages' guides (issue 31). The Marketing section's Invoices page keeps SPEC §1's guide
 * text, which is empty.
 */
export const INVOICE_TOURS: Readonly<Record<string, PageTour>> = {
  '/invoices/manage-invoices': [
    {
      title: 'Invoices',
      body: 'Every invoice and credit note you may see, newest first: its number (none while it is a draft), the buyer, the dates, the total and its status.',
      target: t('invoice-list'),
    },
    {
      title: 'Status tabs',
      body: 'Each tab counts the invoices in one status: draft, unpaid, pending, overdue, paid, failed, cancelled, and the credit notes.',
      target: t('invoice-tabs'),
    },
    {
      title: 'Filters',
      body: 'Narrow the list by seller, kind, currency or the day it was issued. Filters stay in the address; save a set as a view to reuse it.',
      target: t('invoice-filters'),
    },
    {
      title: 'New invoice',
      body: 'Make a draft from an order, from a seller’s subscription period or by hand. It gets its number when it is issued.',
      target: t('new-invoice'),
      requires: 'create',
    },
    {
      title: 'Register',
      body: 'Export the register of a period, every invoice and credit note with the tax per rate, as CSV or Excel. The file arrives as a notification.',
      target: t('invoice-register'),
      requires: 'export',
    },
  ],
  '/invoices/create-invoice': [
    {
      title: 'A new invoice',
      body: 'Choose what the draft is made from: an order (its customer, lines and taxes), a seller’s subscription period, or lines typed by hand with their tax rates. The draft opens on its page, where it is checked and issued.',
    },
  ],
  '/invoices/invoice': [
    {
      title: 'The lines',
      body: 'What the invoice bills, with each line’s net, tax and total, and the taxes per rate under it.',
      target: t('invoice-lines'),
    },
    {
      title: 'Totals',
      body: 'The net, tax, shipping and total, what was paid and what is still to pay. The status follows from these sums and the due date.',
      target: t('invoice-money'),
    },
    {
      title: 'Actions',
      body: 'Issue a draft (its number is final), delete a draft, record a payment, mark a payment failed, cancel with a credit note or mail it to the buyer: only what its state and your permissions allow is offered.',
      target: t('invoice-actions'),
    },
  ],
  '/marketing/manage-invoices': SPEC_TOUR_TEXTS['/marketing/manage-invoices'],
};

/** The guides of the routes that are available now. */
/** The guides of the pages that exist, by route. */
export const PAGE_TOURS: Readonly<Record<string, PageTour>> = {
  // SPEC §2's words (country, company type, template, language) on the page's own controls: the
  // audience pickers and the template are in the composer, which the tour cannot point at while closed.
  '/marketing/bulk-mails': [
    {
      title: 'Bulk mails',
      body: 'Send one mail template to many contacts at once. Each campaign shows its status, how far its send has got, what was sent, deferred for a retry or failed, and the answers and unsubscribes it brought.',
      target: t('campaign-list'),
    },
    {
      title: 'Choose the recipients',
      body: 'New campaign opens the composer. Pick contacts by country, company type, a template they received and their template language, or add any contact condition; the number of contacts who will be mailed updates as you choose. Save an audience to reuse it or share it.',
      target: t('compose'),
      requires: 'create',
    },
    {
      title: 'Template and language',
      body: 'Write each template once per language, with variables such as the first name filled in for every contact, and check the live preview. A contact gets the version in their language, or the fallback language you pick.',
      target: t('templates'),
    },
    {
      title: 'Send',
      body: 'Send a test mail to yourself, then send now or schedule. Sending runs in the background and can be paused and resumed; a toast tells you when all mails have gone out or if something failed.',
      target: t('compose'),
      requires: 'create',
    },
  ],
  // SPEC §2's texts, then the page's other controls.
  '/marketing/contacts': [
    ...SPEC_TOUR_TEXTS['/marketing/contacts'],
    {
      title: 'Search',
      body: 'Find a contact by name, e-mail or company. The search and the filters stay in the address, so a filtered list can be shared or bookmarked.',
      target: t('contact-search'),
    },
    {
      title: 'A contact’s page',
      body: 'Choose a name to see the contact’s details and everything that happened to it: changes, mails, answers, unsubscribes, help chats and queries.',
    },
    {
      title: 'Add a contact',
      body: 'Add one person by hand. An address can be a contact only once, and an address that unsubscribed before stays unsubscribed.',
      target: t('add-contact'),
      requires: 'create',
    },
    {
      title: 'Company types',
      body: 'The list of company types contacts are grouped by. Deleting one leaves its contacts without a type.',
      target: t('company-types'),
      requires: 'edit',
    },
  ],
  // Customer queries (issue 30): SPEC §2's texts, then the inbox's other controls.
  '/queries/queries-request': [
    ...SPEC_TOUR_TEXTS['/queries/queries-request'],
    {
      title: 'Status tabs',
      body: 'Each tab counts the queries in one status: new, open, waiting for the customer, resolved and closed.',
      target: t('query-tabs'),
    },
    {
      title: 'Filters',
      body: 'Narrow the inbox by assignee, channel, priority, overdue follow-ups, missed SLA targets or the day it arrived. Filters stay in the address; save a set as a view to reuse it.',
      target: t('query-filters'),
    },
    {
      title: 'New query',
      body: 'Enter a question that came by phone, e-mail or in person, so it is answered and timed like the others.',
      target: t('new-query'),
      requires: 'edit',
    },
  ],
  '/customers/offer-requests': [
    ...SPEC_TOUR_TEXTS['/customers/offer-requests'],
    {
      title: 'Status tabs',
      body: 'Each tab counts the offers in one status: requested, offered, accepted, declined and expired.',
      target: t('offer-tabs'),
    },
    {
      title: 'Filters',
      body: 'Narrow the list by seller, currency or the day the request arrived. Filters stay in the address; save a set as a view to reuse it.',
      target: t('offer-filters'),
    },
    {
      title: 'New offer request',
      body: 'Record a request a customer made by phone or e-mail, with the products and quantities they asked for.',
      target: t('new-offer'),
      requires: 'edit',
    },
  ],
  '/customers/offer': [
    {
      title: 'The draft',
      body: 'Price the next version: unit prices, quantity breaks, a discount and the tax of each line, the currency and how long the offer is valid. The server computes taxes, shipping and totals when you save.',
      // No target: the editor is absent on an accepted or declined offer.
    },
    {
      title: 'Send',
      body: 'Sending freezes the draft as a version and mails the customer a signed link to accept or decline it. It needs the Approve permission.',
      target: t('offer-send'),
      requires: 'approve',
    },
    {
      title: 'Versions',
      body: 'Every version sent, unchanged, with what each changed against the one before.',
      target: t('offer-versions'),
    },
    {
      title: 'The customer’s answer',
      body: 'The typed name, time, IP address, browser and the fingerprint of the version the customer accepted or declined.',
      target: t('offer-evidence'),
    },
  ],
  '/orders/manage-orders': [
    {
      title: 'Orders',
      body: 'Every order you may see, newest first: its status, whether it is paid, and its total.',
      target: t('order-list'),
    },
    {
      title: 'Status tabs',
      body: 'Each tab counts the orders in one status: pending, paid, shipped, delivered, cancelled and refunded.',
      target: t('order-tabs'),
    },
    {
      title: 'Filters',
      body: 'Narrow the list by seller, payment state, currency or the day it was placed. Filters stay in the address; save a set as a view to reuse it.',
      target: t('order-filters'),
    },
    {
      title: 'Export',
      body: 'Download what the list shows (its tab, filters and search) as CSV or Excel; the file arrives as a notification.',
      target: t('orders-export'),
      requires: 'export',
    },
    {
      title: 'New order',
      body: 'Place an order on a customer’s behalf. An accepted offer becomes an order from its own page.',
      target: t('new-order'),
      requires: 'create',
    },
  ],
  '/orders/create-new-order': [
    {
      title: 'A new order',
      body: 'Enter the customer, where the goods go and the products. The server prices the order, taxes it for the shipping country and reserves its stock; an order whose stock is short is refused in words.',
    },
  ],
  '/orders/order': [
    {
      title: 'The lines',
      body: 'The products as the server priced them: discounts, the taxes of the shipping country, shipping and the total.',
      target: t('order-lines'),
    },
    {
      title: 'Money',
      body: 'What was paid and refunded, and what is still due. Status and payment state follow from these sums.',
      target: t('order-money'),
    },
    {
      title: 'Actions',
      body: 'Record a payment, ship, refund (any number of times, with a reason), edit the lines as a new version or cancel: only what the order’s state allows is offered.',
      target: t('order-actions'),
      requires: 'edit',
    },
  ],
  '/orders/manage-purchase-orders': [
    {
      title: 'Purchase orders',
      body: 'The stock ordered from suppliers, newest first: the supplier, the shop whose stock it is, when it is expected, its total and its status.',
      target: t('po-list'),
    },
    {
      title: 'Status tabs',
      body: 'Each tab counts the purchase orders in one status: draft, sent, partly received, received and cancelled.',
      target: t('po-tabs'),
    },
    {
      title: 'Suppliers',
      body: 'Add and change the suppliers: the e-mail their purchase orders are mailed to, their currency and how far a delivery may fall short of or exceed what was ordered.',
      target: t('po-suppliers'),
      requires: 'edit',
    },
    {
      title: 'New purchase order',
      body: 'Order stock of one shop’s products from a supplier. It starts as a draft; send it from its page.',
      target: t('new-po'),
      requires: 'create',
    },
  ],
  '/orders/create-new-purchase-order': [
    {
      title: 'Supplier and shop',
      body: 'Choose an active supplier and the shop whose stock rises when the goods arrive. The currency is the supplier’s unless you choose another.',
      target: t('po-parties'),
    },
    {
      title: 'Products',
      body: 'Add the shop’s products with the quantity and what one unit costs; the line totals show as you type.',
      target: t('po-new-lines'),
    },
    {
      title: 'Save the draft',
      body: 'The purchase order is saved as a draft and opens on its page, where it is sent to the supplier.',
      target: t('po-save'),
      requires: 'create',
    },
  ],
  '/orders/purchase-order': [
    {
      title: 'The lines',
      body: 'What was ordered and what arrived so far, with the range each line accepts within the supplier’s tolerance; a line marked Received is complete.',
      target: t('po-lines'),
    },
    {
      title: 'Receipts',
      body: 'Each delivery taken in: what arrived, who took it in, and why extra units were kept. Every receipt raised the stock.',
      target: t('po-receipts'),
    },
    {
      title: 'PDF and actions',
      body: 'Open the PDF the supplier gets. Those who may edit purchase orders send it (the supplier is mailed the PDF), take goods in or cancel it: only what its status allows is offered.',
      target: t('po-actions'),
    },
  ],
  '/auctions/manage-auctions': [
    {
      title: 'Auctions by status',
      body: 'Drafts, scheduled auctions, live ones (their start has passed), ended ones with how they ended, and cancelled ones. Search by title, product or number.',
    },
    {
      title: 'A new auction',
      body: 'Choose a seller’s product, the starting price, an optional hidden reserve and Buy Now price, the start and end, and the increments. Save a draft or publish it to open at its start.',
      requires: 'create',
    },
  ],
  '/auctions/auction-details': [
    {
      title: 'The live view',
      body: 'The price, the leader (masked), the bids, the watchers and the countdown to the end, updated as bids arrive, exactly as bidders see them on the public page.',
    },
    {
      title: 'The ledger',
      body: 'Every accepted bid in order, with the bidder’s hidden maximum. An admin may cancel a bid with a reason: the ledger keeps it and the price is worked out again without it.',
    },
    {
      title: 'After the close',
      body: 'The winner is mailed a link to give a shipping address, which makes their order. If they let the deadline pass, offer the lot to the next bidder or relist it.',
    },
  ],
  '/queries/query': [
    {
      title: 'A customer query',
      body: 'The customer’s message and everything that happened since, newest first: replies, calls, notes and each change.',
      target: t('query-thread'),
    },
    {
      title: 'SLA clocks',
      body: 'How long is left to answer and to resolve the query within its priority’s targets, or whether a target was met or missed. The clocks pause while the query waits for the customer.',
      target: t('query-sla'),
    },
    {
      title: 'Handle it',
      body: 'Move the query on, give it to someone, change its priority, plan the next follow-up or snooze it. The assignee is reminded when the follow-up falls due.',
      target: t('query-controls'),
    },
    {
      title: 'Add connect data',
      body: 'Log a call, an e-mail or a note with its outcome and the next follow-up.',
      target: t('query-connect'),
      requires: 'edit',
    },
    {
      title: 'Reply',
      body: 'Mail the customer one of your templates. The mail carries a link where they answer, and their answer lands in the thread.',
      target: t('query-reply'),
      requires: 'edit',
    },
  ],
  '/products/attributes': [
    {
      title: 'Attributes',
      body: 'The typed fields products are described by: colour, size, power… Each has a code, a data type, one or several values, and may be required.',
      target: t('attribute-table'),
    },
    {
      title: 'Find an attribute',
      body: 'Search by code or label, or show only one data type. Open a row to see its options and the categories using it.',
      target: t('attribute-search'),
    },
    {
      title: 'New attribute',
      body: 'Add an attribute. Its fields follow the data type: a unit for numbers, options for a list of choices.',
      target: t('new-attribute'),
      requires: 'create',
    },
    {
      title: 'Category sets',
      body: "Choose which attributes each category asks its products for, and in which order. Subcategories inherit their parent's set.",
      target: t('attribute-tabs'),
    },
  ],
  // SPEC §2's words on the page's tabs; a seller's version speaks of their shop and has no
  // Communication tab (the marketplace's mail and office hours are the admins').
  '/settings/manage-settings': {
    backOffice: [
      ...SPEC_TOUR_TEXTS['/settings/manage-settings'],
      {
        title: 'History',
        body: 'Every change to these settings: who made it, when, and each field before and after. Filter it, page through all of it and export it as CSV.',
        target: t('settings-history'),
      },
    ],
    seller: [
      {
        title: 'Settings',
        body: 'Your shop’s settings, grouped into sections. Each value is the marketplace’s until you override it, and “Reset to inherited” follows the marketplace again.',
      },
      ...SPEC_TOUR_TEXTS['/settings/manage-settings'].filter(
        (step) => step.target && step.target !== t('settings-communication'),
      ),
      {
        title: 'History',
        body: 'Every change to your shop’s settings: who made it, when, and each field before and after.',
        target: t('settings-history'),
      },
    ],
  },
  '/tags/manage-tags': {
    backOffice: [
      {
        title: 'Tag hierarchy',
        body: 'The tags the storefront navigates and filters by, as a tree. Expand a tag to see its children and choose it to see and change it. You edit a draft: the storefront changes only when it is published.',
        target: t('tag-tree'),
      },
      {
        title: 'Add a node',
        body: 'Add a top-level tag here, or a child or sibling of the chosen tag beside the tree. Drag a tag onto another to move it, or use “Move to…”.',
        target: t('add-node'),
        requires: 'create',
      },
      {
        title: 'Calculate node levels',
        body: 'Recomputes every tag’s level and how many products it and the tags below it hold. It runs in the background; a toast tells you when it is done.',
        target: t('calculate-levels'),
        requires: 'edit',
      },
      {
        title: 'Status overview',
        body: 'How many tags are new, changed, published or to be removed, how deep the tree goes, which tags hold no products and the largest subtrees.',
        target: t('status-overview'),
      },
      {
        title: 'Publish',
        body: 'Shows everything the draft would change first — added, removed, renamed and moved tags, and the products concerned — then publishes it as a new version.',
        target: t('publish'),
        requires: 'publish',
      },
      {
        title: 'Publish history',
        body: 'Every version: who published it, when and why. Open one, compare it with another, or roll back to it.',
        target: t('publish-history'),
      },
      {
        title: 'Export',
        body: 'Download the draft, or any version from the history, as CSV or Excel (a row per tag with its full path) or as nested JSON.',
        target: t('export'),
        requires: 'export',
      },
    ],
    seller: [
      {
        title: 'Tag hierarchy',
        body: 'The tags shoppers browse and filter by, as published. Search for a tag to see where it sits.',
        target: t('tag-tree'),
      },
      {
        title: 'Publish history',
        body: 'When the tags last changed, and what changed.',
        target: t('publish-history'),
      },
    ],
  },
  '/imports/manage-imports': {
    backOffice: [
      {
        title: 'Catalogue imports',
        body: 'Sheets uploaded for sellers’ catalogues. Every row is checked before anything is written, and nothing reaches staging until someone moves it.',
        target: t('import-table'),
      },
      {
        title: 'Upload a sheet',
        body: 'Choose the seller and a CSV or XLSX sheet. It is validated in the background; the toast tells you when the report is ready.',
        target: t('upload-sheet'),
        requires: 'import',
      },
      {
        title: 'Find an import',
        body: 'Search by file or seller name, or show only one status. Open an import for its report, mapping, preview, suggested titles and history.',
        target: t('import-search'),
      },
      {
        title: 'Report, preview and moves',
        body: 'The report counts new, updated, unchanged, duplicate and error rows, each error with its cell. The preview shows every field before and after; Move to staging commits exactly that.',
      },
      {
        title: 'Import requests',
        body: 'Sellers who cannot map a sheet, or who sell from a feed, ask here. Take a request, import its file or fetch its feed, then mark it done or reject it with an answer.',
        target: t('import-tabs'),
      },
    ],
    seller: [
      {
        title: 'Your imports',
        body: 'The catalogue sheets you uploaded. Every row is checked first, and your products change only when you move them to staging.',
        target: t('import-table'),
      },
      {
        title: 'Upload a sheet',
        body: 'Upload a CSV or XLSX sheet of your products; start from the sample sheet if you have none. You see what each row would do before anything moves.',
        target: t('upload-sheet'),
        requires: 'import',
      },
      {
        title: 'Report and fixes',
        body: 'Errors name their cell, such as D17. Fix the sheet and upload it again, download the error sheet, or change the column mapping and revalidate.',
      },
      {
        title: 'Ask us to import',
        body: 'Cannot map your sheet, or sell from a product feed? Under Import requests, request an import: our team does it and answers you there.',
        target: t('import-tabs'),
      },
    ],
  },
  // SPEC §2's words for the grid; each step that needs an action shows only to whoever has it.
  '/products/staging-products': SPEC_TOUR_TEXTS['/products/staging-products'].map((step) =>
    step.target === t('add-product')
      ? { ...step, requires: 'create' as const }
      : step.target === t('reprocess-images')
        ? { ...step, requires: 'edit' as const }
        : step.target === t('export')
          ? { ...step, requires: 'export' as const }
          : step,
  ),
  '/product/staging-products': [
    {
      title: 'Status',
      body: 'Where the product is in its life: draft, in review, approved, live, rejected or inactive. The buttons beside the title are the moves allowed from here.',
      target: t('product-status'),
    },
    {
      title: 'Completeness',
      body: 'The share of its category’s required attributes that are filled, and which are still missing. A product goes for review only when it is complete.',
      target: t('product-completeness'),
    },
    {
      title: 'Edit',
      body: 'Change any field, attribute or image; the form follows the category’s attributes, each with its own kind of input.',
      target: t('product-edit'),
      requires: 'edit',
    },
    {
      title: 'History',
      body: 'Every change with who made it and when, each field before and after.',
      target: t('product-history'),
    },
  ],
  // SPEC §2's campaigns dashboard words, then the charts, then the marketplace figures below them.
  '/': [
    ...SPEC_TOUR_TEXTS['/'].filter((step) => !step.target || step.target === t('campaign-stats')),
    {
      title: 'Campaigns over time',
      body: 'Mails sent per month over the last 12 months, with each month’s campaigns and mails in the table beside the chart.',
      target: t('campaigns-over-time'),
    },
    {
      title: 'Latest campaigns',
      body: 'The newest campaigns with their status; one that is sending shows its progress live, including mails waiting for a retry.',
      target: t('latest-campaigns'),
    },
    {
      title: 'Responses and unsubscribes',
      body: 'For each recent campaign: mails sent and failed, how many recipients answered and how many unsubscribed, as a share of the mails sent.',
      target: t('campaign-rates'),
    },
    {
      title: 'Answers',
      body: 'What recipients answered through the response links in your mails, most frequent first.',
      target: t('responses-by-answer'),
    },
    {
      title: 'Contacts growth',
      body: 'New contacts per month by where they came from: lead imports, help chats, customer queries or added by hand.',
      target: t('contacts-growth'),
    },
    {
      title: 'Sellers by tab',
      body: 'How many sellers are active, waiting for e-mail verification, waiting for KYC or inactive — the four tabs of Manage Sellers — and how many subscriptions are blocked.',
      target: t('seller-tabs'),
    },
    {
      title: 'Seller sign-ups',
      body: 'New sellers per month over the last 12 months, with the number above each bar.',
      target: t('seller-signups'),
    },
    {
      title: 'Back-office users',
      body: 'How many admins, staff members and sellers can sign in to the back-office.',
      target: t('users-by-role'),
    },
    ...SPEC_TOUR_TEXTS['/']
      .filter((step) => step.target && step.target !== t('campaign-stats'))
      .map(
        // The shell's bell and sidebar are on every page: these steps are shown centred.
        ({ target: _target, ...step }) => step,
      ),
  ],
  '/sellers/general-dashboard': [
    {
      title: 'Your store at a glance',
      body: 'Your store’s figures, counted live. While your store is not active yet, a card at the top says what is missing and takes your KYC documents.',
    },
    {
      title: 'Products, queries and chats',
      body: 'Live products, products awaiting review, open customer queries and open help chats, with what needs you most underneath each figure.',
      target: t('store-figures'),
    },
    {
      title: 'By status',
      body: 'Your products and customer queries by status, each bar with its number.',
      target: t('status-charts'),
    },
    {
      title: 'Subscription and checklist',
      body: 'Your plan and renewal date (Manage subscription takes you to renew), your store’s details, and the checklist of e-mail, KYC and activation.',
      target: t('store-details'),
    },
  ],
  '/sellers/payment-seller-subscriptions': [
    {
      title: 'Your subscription',
      body: 'Your current plan, what it costs and when it ends. If your subscription is blocked, this page is where you renew it to open your store again.',
      target: t('current-plan'),
    },
    {
      title: 'Renew',
      body: 'Pick a plan and send a renewal request. An admin approves it once your payment is in; the new period starts where the current one ends.',
      target: t('renewal'),
    },
    {
      title: 'History',
      body: 'Your subscription periods and your recent renewal requests, with each one’s decision.',
      target: t('subscription-history'),
    },
  ],
  '/sellers/manage-sellers': [
    {
      title: 'Sellers by tab',
      body: 'Active Sellers, Pending Verification (e-mail not verified), Pending KYC and Inactive Sellers, each with its count. A tab lists the sellers in that state.',
      target: t('seller-tab-list'),
    },
    {
      title: 'Search and page size',
      body: 'Search the current tab by name, seller code, e-mail or phone; choose how many rows a page shows. Click a column header to sort by it.',
      target: t('seller-search'),
    },
    {
      title: 'A seller’s details',
      body: 'Click a seller’s name to open their details: profile, documents, logo, status changes and the history of every change.',
      target: t('seller-table'),
    },
    {
      title: 'New seller',
      body: 'Add a seller by hand. They start in Pending Verification; leave the code empty to get the next free one.',
      target: t('new-seller'),
      requires: 'create',
    },
    {
      title: 'Export',
      body: 'Export the current tab, search and sort as CSV or Excel. The file is prepared in the background; a notification brings the download.',
      target: t('sellers-export'),
      requires: 'export',
    },
  ],
  '/subscriptions/subscriptions-request': [
    {
      title: 'Renewal requests',
      body: 'Sellers’ requests to renew their subscription. Pending requests wait for a decision; Decided keeps the approved and rejected ones.',
      target: t('subscription-list'),
    },
    {
      title: 'Approve or reject',
      body: 'Approve a request once the payment is in: a new period starts and a blocked seller is let in at once. Reject it with a reason the seller will see.',
      requires: 'approve',
    },
    {
      title: 'Seller subscriptions',
      body: 'Every seller’s current subscription and its state. Click a seller for their periods and requests; a blocked seller can only see and renew their subscription.',
      target: t('block-subscription'),
    },
  ],
  '/sellers/list-of-customers': {
    backOffice: [
      {
        title: 'Customers',
        body: 'Everyone who buys on the marketplace, with the store they registered through.',
        target: t('customer-table'),
      },
      {
        title: 'Search',
        body: 'Find a customer by part of their name, e-mail or phone.',
        target: t('customer-search'),
      },
      {
        title: 'Open a customer',
        body: 'Open a customer to see their details and address, and to correct them.',
        requires: 'edit',
      },
    ],
    seller: [
      {
        title: 'Your customers',
        body: 'The people who registered through your store.',
        target: t('customer-table'),
      },
      {
        title: 'Search',
        body: 'Find a customer by part of their name, e-mail or phone.',
        target: t('customer-search'),
      },
    ],
  },
  '/sellers/seller-customers/customer-edit': [
    {
      title: 'A customer',
      body: 'The customer’s details and address. Change what is wrong and save; Back to customers returns to the list.',
      target: t('customer-form'),
    },
  ],
  '/sellers/manage-category': [
    {
      title: 'Categories',
      body: 'The categories sellers list their products under. Search them by name; open one to manage its subcategories.',
      target: t('category-list'),
    },
    {
      title: 'New category',
      body: 'Add a category. Each name is used once.',
      target: t('new-category'),
      requires: 'create',
    },
  ],
  '/sellers/manage-subcategory': [
    {
      title: 'Subcategories',
      body: 'The subcategories of one category. Search them by name; Back to categories returns to the list.',
      target: t('category-list'),
    },
    {
      title: 'New subcategory',
      body: 'Add a subcategory to this category.',
      target: t('new-subcategory'),
      requires: 'create',
    },
  ],
  '/staff/manage-staff': [
    {
      title: 'Staff members',
      body: 'Everyone on your team with a back-office account. Search by name or e-mail, or show only active or deactivated accounts.',
      target: t('staff-filters'),
    },
    {
      title: 'Invite',
      body: 'Invite a staff member by e-mail: they get a link to choose their password. Until they do, their row says Invitation pending, and Resend invitation mails the link again.',
      target: t('invite-staff'),
      requires: 'create',
    },
    {
      title: 'Each member',
      body: 'Open a member’s permissions, send an active member a password reset link, or deactivate an account: that signs them out everywhere at once.',
      target: t('staff-table'),
    },
  ],
  '/permission/UserPermission': [
    {
      title: 'Users and roles',
      body: 'Users sets what one person may do, on top of their role; Roles sets what every admin, staff member or seller gets by default.',
      target: t('permission-tabs'),
    },
    {
      title: 'Pick a user',
      body: 'Search for a user and pick them to see every page and what they may do there. Save applies the changes; Reset drops them.',
      target: t('permission-users'),
    },
    {
      title: 'Default permissions',
      body: 'Turn this on to give every user their role’s default permissions, setting aside the menus stored for them.',
      target: t('default-permissions'),
    },
  ],
  '/customers/help-chats': [
    {
      title: 'Help chats',
      body: 'Every seller’s chats with their customers, newest first, 20 at a time. Search by customer name, e-mail or message.',
      target: t('chat-list'),
    },
    {
      title: 'A conversation',
      body: 'Pick a chat to read it. A customer who asked for a person is marked; answering by hand takes the chat over from the bot until you hand it back.',
      target: t('chat-conversation'),
    },
  ],
  '/sellers/help-chats': [
    {
      title: 'Your help chats',
      body: 'Chats with customers from the chat on your storefront, newest first. Search by customer name, e-mail or message.',
      target: t('chat-list'),
    },
    {
      title: 'Answer',
      body: 'Pick a chat to read it and answer. Answering by hand takes the chat over from the bot until you hand it back; a toast and a sound tell you when a customer asks for you.',
      target: t('chat-conversation'),
    },
    {
      title: 'Bot answers',
      body: 'Bot answers sets the questions your bot offers and what it replies to them.',
      target: t('bot-answers'),
    },
  ],
  '/calls/call-history': {
    backOffice: [
      {
        title: 'Call history',
        body: 'Calls made and received, newest first, with their outcome. Admins see every user’s calls.',
        target: t('call-table'),
      },
      {
        title: 'Filters',
        body: 'Narrow the list by part of a number, by status, by direction and by dates.',
        target: t('call-filters'),
      },
      {
        title: 'A call',
        body: 'Open a call for its timeline and the feedback left after it. Calls are made from the Phone button in the header.',
      },
    ],
    seller: [
      {
        title: 'Your calls',
        body: 'The calls you made and received, newest first, with their outcome.',
        target: t('call-table'),
      },
      {
        title: 'Filters',
        body: 'Narrow the list by part of a number, by status, by direction and by dates.',
        target: t('call-filters'),
      },
      {
        title: 'A call',
        body: 'Open a call for its timeline and your feedback. Make calls from the Phone button in the header.',
      },
    ],
  },
  // The invoice pages (issue 31).
  ...INVOICE_TOURS,
};

/** Strips the query, hash and trailing slash, so `/staff/manage-staff/?q=1` finds its guide. */
export function normalizeTourPath(path: string): string {
  const bare = path.split(/[?#]/, 1)[0] ?? '';
  const trimmed = bare.length > 1 ? bare.replace(/\/+$/, '') : bare;
  return trimmed === '' ? '/' : trimmed;
}

/** The steps of a guide for one audience. */
export function guideSteps(tour: PageTour, audience: TourAudience): readonly TourStep[] {
  return Array.isArray(tour)
    ? (tour as readonly TourStep[])
    : (tour as Record<TourAudience, readonly TourStep[]>)[audience];
}

export interface TourViewer {
  /** The user's effective permissions (getSidebarData). */
  permissions: Readonly<Record<string, readonly RouteAction[]>>;
  isSeller: boolean;
}

/**
 * The guide to show on `path` for this user: empty unless the page exists and they may open it (so never
 * on "Page not found" or "No access"), in the sellers' version for sellers, without steps about actions
 * they may not take.
 */
export function tourFor(path: string, viewer: TourViewer): readonly TourStep[] {
  const route = normalizeTourPath(path);
  const tour = PAGE_TOURS[route];
  if (!tour || !findRoute(route)?.available || !canOpenRoute(route, viewer.permissions)) return [];
  const granted = viewer.permissions[route] ?? [];
  return guideSteps(tour, viewer.isSeller ? 'seller' : 'backOffice').filter(
    (step) => !step.requires || granted.includes(step.requires),
  );
}
