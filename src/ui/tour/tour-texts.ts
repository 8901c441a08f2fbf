// Guided-tour help texts, one list of steps per page (SPEC §2 "Guided-tour help texts exist for").
//
// Plain data so pages, tests and a future translation pass can read it without React. A step's
// `target` is a CSS selector a page may put on a control (`data-tour="export"`); the tour shows
// the step next to that control when it is on screen and centred when it is not, so the texts
// never depend on a page having been marked up yet.

export interface TourStep {
  title: string;
  body: string;
  /** CSS selector of the element this step explains, e.g. `[data-tour="export"]`. */
  target?: string;
}

/** `data-tour` selector helper, so pages and texts agree on one spelling. */
export const tourTarget = (name: string) => `[data-tour="${name}"]`;

export const TOUR_ROUTES = [
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

export type TourRoute = (typeof TOUR_ROUTES)[number];

export const TOUR_TEXTS: Readonly<Record<TourRoute, readonly TourStep[]>> = {
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

function isTourRoute(path: string): path is TourRoute {
  return (TOUR_ROUTES as readonly string[]).includes(path);
}

/** Strips the query, hash and trailing slash, so `/marketing/contacts/?q=1` finds its guide. */
export function normalizeTourPath(path: string): string {
  const bare = path.split(/[?#]/, 1)[0] ?? '';
  const trimmed = bare.length > 1 ? bare.replace(/\/+$/, '') : bare;
  return trimmed === '' ? '/' : trimmed;
}

/** The guide of a page; empty when the page has none (including the invoices page). */
export function getTourSteps(path: string): readonly TourStep[] {
  const route = normalizeTourPath(path);
  return isTourRoute(route) ? TOUR_TEXTS[route] : [];
}
