// operationIds for the OpenAPI document. A generated client names its functions after them, so they
// are the SPEC §7 call names wherever SPEC names the call: `GET /api/v1/sellers/listSellers` is
// `listSellers`. Routes SPEC does not name get a name from NAMED_ROUTES; a route in neither is named
// after its path, so a new route never leaves the document without one.

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** SPEC §7's calls and the method SPEC gives each: the route that serves a call with it gets the bare name. */
export const SPEC_CALLS: Readonly<Record<string, Method>> = {
  // Sellers
  listSellers: 'GET',
  searchSellers: 'GET',
  markSellerFree: 'GET',
  getFillerProductSellers: 'GET',
  createNewSeller: 'POST',
  updateSeller: 'PUT',
  updateSellerStatusById: 'PUT',
  updateStatusBySeller: 'PUT',
  getSellersById: 'GET',
  getUpdateHistory: 'GET',
  uploadSellerDocument: 'POST',
  uploadSellerLogo: 'POST',
  // Subscription manager
  getSellerSubscriptions: 'GET',
  getSubscriptions: 'GET',
  isSellerBlocked: 'GET',
  blockSubscription: 'POST',
  // Users
  getUserRoles: 'GET',
  getUserPermissionConfig: 'GET',
  listUsersByRole: 'GET',
  listCustomers: 'GET',
  getUserPermissions: 'GET',
  searchCustomers: 'GET',
  updateUserPermissions: 'POST',
  updateRolePermissions: 'POST',
  // Record service
  unsubscribeEmailUser: 'POST',
  getContactHistory: 'GET',
  listEventMessages: 'GET',
  // Global configs
  getDefaultSelects: 'GET',
  getPermissionsConfig: 'GET',
  getCountriesList: 'GET',
  // Imports
  listImports: 'GET',
  searchImports: 'GET',
  listImportRequests: 'GET',
  addImportProductsApi: 'GET',
  getBatchReport: 'GET',
  searchBatches: 'GET',
  uploadCatalogSheet: 'POST',
  reprocessBatch: 'POST',
  markInactive: 'POST',
  getSuggestedTitles: 'POST',
  moveToStaging: 'GET',
  moveToStagingOnlyPricingAndInventory: 'GET',
  mergeDuplicatesToStaging: 'GET',
  getImportUpdateHistory: 'GET',
  getRequestUpdateHistory: 'GET',
  // Query bot
  listQueryBotChats: 'GET',
  listSellerQueryBotChats: 'GET',
  searchSellerQueryBotChats: 'GET',
  searchQueryBotChats: 'GET',
  getQueryBotChatDetails: 'GET',
  // Call history and voice
  listCallHistory: 'GET',
  searchCallHistory: 'GET',
  getCallDetails: 'GET',
  updateHistory: 'PUT',
  generateCall: 'POST',
  getAccessToken: 'GET',
};

/** Names for the routes whose path holds no call name (REST-style paths), keyed by `METHOD path`. */
export const NAMED_ROUTES: Readonly<Record<string, string>> = {
  'GET /api/health': 'getHealth',
  'POST /api/v1/auth/signin': 'signIn',
  'POST /api/v1/auth/refresh': 'refreshAccessToken',
  'POST /api/v1/auth/signout': 'signOut',
  'POST /api/v1/auth/forgot-password': 'forgotPassword',
  'POST /api/v1/auth/reset-password': 'resetPassword',
  'GET /api/v1/users/byToken/current': 'getCurrentUser',
  'GET /api/v1/users/customers/{id}': 'getCustomer',
  'PUT /api/v1/users/customers/{id}': 'updateCustomer',
  'GET /api/v1/users/defaultPermissions': 'getDefaultPermissions',
  'PUT /api/v1/users/defaultPermissions': 'setDefaultPermissions',
  'POST /api/v1/stagingProducts': 'createStagingProduct',
  'POST /api/v1/stagingProducts/method/search': 'searchStagingProducts',
  'GET /api/v1/stagingProducts/method/queryFields': 'getProductQueryFields',
  'GET /api/v1/stagingProducts/method/options/{source}': 'getProductFieldOptions',
  'POST /api/v1/stagingProducts/method/report': 'getStagingProductsReport',
  'POST /api/v1/stagingProducts/method/export': 'exportStagingProducts',
  'GET /api/v1/stagingProducts/{id}': 'getStagingProduct',
  'PATCH /api/v1/stagingProducts/{id}': 'updateStagingProduct',
  'POST /api/v1/stagingProducts/{id}/status': 'setStagingProductStatus',
  'GET /api/v1/stagingProducts/{id}/history': 'getStagingProductHistory',
  'POST /api/v1/stagingProducts/media': 'uploadProductMedia',
  'GET /api/v1/stagingProducts/media/{id}': 'getProductMedia',
  'GET /api/v1/attributes': 'listAttributes',
  'POST /api/v1/attributes': 'createAttribute',
  'GET /api/v1/attributes/groups': 'listAttributeGroups',
  'GET /api/v1/attributes/categories': 'listCategoryAttributeSets',
  'GET /api/v1/attributes/categories/{categoryId}': 'getCategoryAttributes',
  'PUT /api/v1/attributes/categories/{categoryId}': 'setCategoryAttributes',
  'GET /api/v1/attributes/forCategory/{categoryId}': 'getAttributesForCategory',
  'GET /api/v1/attributes/{id}': 'getAttribute',
  'PATCH /api/v1/attributes/{id}': 'updateAttribute',
  'DELETE /api/v1/attributes/{id}': 'deleteAttribute',
  'GET /api/v1/imports/titleTemplate': 'getTitleTemplate',
  'PUT /api/v1/imports/titleTemplate': 'saveTitleTemplate',
  'GET /api/v1/tags/state': 'getTagTreeState',
  'GET /api/v1/tags/trees/{source}/children': 'listTagChildren',
  'GET /api/v1/tags/trees/{source}/search': 'searchTags',
  'GET /api/v1/tags/trees/{source}/all': 'listAllTags',
  'GET /api/v1/tags/trees/{source}/nodes/{id}': 'getTag',
  'POST /api/v1/tags/draft/nodes': 'createDraftTag',
  'PATCH /api/v1/tags/draft/nodes/{id}': 'updateDraftTag',
  'POST /api/v1/tags/draft/nodes/{id}/move': 'moveDraftTag',
  'GET /api/v1/tags/draft/nodes/{id}/deleteImpact': 'getDraftTagDeleteImpact',
  'POST /api/v1/tags/draft/nodes/{id}/delete': 'deleteDraftTag',
  'GET /api/v1/tags/draft/nodes/{id}/history': 'getDraftTagHistory',
  'POST /api/v1/tags/publish': 'publishTags',
  'POST /api/v1/tags/rollback': 'rollbackTags',
  'GET /api/v1/tags/versions': 'listTagVersions',
  'GET /api/v1/tags/versions/{number}': 'getTagVersion',
  'GET /api/v1/tags/diff': 'diffTagVersions',
  'GET /api/v1/tags/history': 'getTagHistory',
  'GET /api/v1/tags/overview': 'getTagOverview',
  'POST /api/v1/tags/export': 'exportTags',
  'GET /api/v1/savedViews': 'listSavedViews',
  'POST /api/v1/savedViews': 'createSavedView',
  'PATCH /api/v1/savedViews/{id}': 'updateSavedView',
  'DELETE /api/v1/savedViews/{id}': 'deleteSavedView',
  'PUT /api/v1/savedViews/default': 'setDefaultSavedView',
  'GET /api/v1/contacts': 'listContacts',
  'POST /api/v1/contacts': 'createContact',
  'GET /api/v1/contacts/queryFields': 'getContactQueryFields',
  'POST /api/v1/contacts/export': 'exportContacts',
  'GET /api/v1/contacts/{id}': 'getContact',
  'PUT /api/v1/contacts/{id}': 'updateContact',
  'POST /api/v1/contacts/{id}/delete': 'deleteContact',
  'POST /api/v1/contacts/{id}/unsubscribe': 'unsubscribeContact',
  'POST /api/v1/contacts/{id}/resubscribe': 'resubscribeContact',
  // The same call as helperQuery/method/getContactHistory/{id}, at a second path.
  'GET /api/v1/contacts/{id}/history': 'getContactHistory',
  'GET /api/v1/contacts/companyTypes': 'listCompanyTypes',
  'POST /api/v1/contacts/companyTypes': 'createCompanyType',
  'PUT /api/v1/contacts/companyTypes/{id}': 'updateCompanyType',
  'POST /api/v1/contacts/companyTypes/{id}/delete': 'deleteCompanyType',
  'GET /api/v1/contacts/leadImports': 'listLeadImports',
  'POST /api/v1/contacts/leadImports': 'createLeadImport',
  'GET /api/v1/contacts/leadImports/{id}': 'getLeadImport',
  'POST /api/v1/contacts/leadImports/{id}/start': 'startLeadImport',
  'POST /api/v1/contacts/leadImports/{id}/discard': 'discardLeadImport',
  'GET /api/v1/contacts/leadImports/{id}/rows': 'listLeadImportRows',
  'POST /api/v1/contacts/leadImports/{id}/errorSheet': 'exportLeadImportErrorSheet',
  'GET /api/v1/mailTemplates': 'listMailTemplates',
  'POST /api/v1/mailTemplates': 'createMailTemplate',
  'POST /api/v1/mailTemplates/preview': 'previewMailTemplate',
  'GET /api/v1/mailTemplates/{id}': 'getMailTemplate',
  'PUT /api/v1/mailTemplates/{id}': 'updateMailTemplate',
  'DELETE /api/v1/mailTemplates/{id}': 'deleteMailTemplate',
  'GET /api/v1/campaigns': 'listCampaigns',
  'POST /api/v1/campaigns': 'createCampaign',
  'GET /api/v1/campaigns/{id}': 'getCampaign',
  'PUT /api/v1/campaigns/{id}': 'updateCampaign',
  'DELETE /api/v1/campaigns/{id}': 'deleteCampaign',
  'POST /api/v1/campaigns/{id}/testMail': 'sendCampaignTestMail',
  'POST /api/v1/campaigns/{id}/send': 'sendCampaign',
  'POST /api/v1/campaigns/{id}/pause': 'pauseCampaign',
  'POST /api/v1/campaigns/{id}/resume': 'resumeCampaign',
  'GET /api/v1/campaigns/{id}/recipients': 'listCampaignRecipients',
  'GET /api/v1/campaigns/{id}/responses': 'listCampaignResponses',
  'GET /api/v1/campaigns/{id}/unsubscribes': 'listCampaignUnsubscribes',
  'GET /api/v1/globalConfigs/runtime': 'getRuntimeConfig',
  'GET /api/v1/globalConfigs/iceServers': 'getIceServers',
  'GET /api/v1/sellers/documents/{docId}': 'getSellerDocument',
  'GET /files/logos/{name}': 'getSellerLogoFile',
  'GET /api/v1/tasks': 'listTasks',
  'GET /api/v1/tasks/{taskId}': 'getTask',
  'POST /api/v1/exports/sellers': 'exportSellers',
  'GET /api/v1/exports/{taskId}/download': 'downloadExport',
  'GET /api/v1/queryBot/widget/{sellerCode}': 'getChatWidget',
  'POST /api/v1/queryBot/widget/{sellerCode}/start': 'startWidgetChat',
  'POST /api/v1/queryBot/widget/{sellerCode}/messages': 'sendWidgetMessage',
  'GET /api/v1/queryBot/widget/{sellerCode}/chats/{sessionId}': 'getWidgetChat',
  'GET /api/v1/queryBot/widget/{sellerCode}/chats/{sessionId}/events': 'streamWidgetChatEvents',
  'GET /api/v1/enquiry/{sellerCode}': 'getEnquiryForm',
  'GET /api/v1/enquiry/{sellerCode}/products': 'listEnquiryProducts',
  'POST /api/v1/enquiry/{sellerCode}': 'sendEnquiry',
  'GET /api/v1/queryBot/faqs': 'listFaqs',
  'POST /api/v1/queryBot/faqs': 'createFaq',
  'PATCH /api/v1/queryBot/faqs/{id}': 'updateFaq',
  'DELETE /api/v1/queryBot/faqs/{id}': 'deleteFaq',
  'GET /api/v1/offers': 'listOffers',
  'POST /api/v1/offers': 'createOfferRequest',
  'GET /api/v1/offers/{id}': 'getOffer',
  'PUT /api/v1/offers/{id}/draft': 'saveOfferDraft',
  'POST /api/v1/offers/{id}/send': 'sendOffer',
  'GET /api/v1/offers/{id}/versions/{version}/diff': 'getOfferVersionDiff',
  'GET /api/v1/offers/public/{token}': 'getPublicOffer',
  'POST /api/v1/offers/public/{token}/accept': 'acceptOffer',
  'POST /api/v1/offers/public/{token}/decline': 'declineOffer',
};

const pascal = (word: string) =>
  word
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]?.toUpperCase() + part.slice(1))
    .join('');

/**
 * The call a route serves, before duplicates are told apart: NAMED_ROUTES, else the call name its path
 * holds (`/api/v1/<group>/[method/]<callName>[/{param}]`), else its method and path.
 */
export function callNameOf(method: string, path: string): string {
  const named = NAMED_ROUTES[`${method} ${path}`];
  if (named) return named;
  const segments = path.split('/').filter(Boolean);
  if (segments[0] === 'api' && segments[1] === 'v1') {
    const rest = segments.slice(3).filter((segment) => segment !== 'method');
    const [name, param, ...more] = rest;
    if (name && /^[a-z]+[A-Z]\w*$/.test(name) && more.length === 0 && (!param || param.startsWith('{')))
      return name;
  }
  const words = segments.filter(
    (segment) => !segment.startsWith('{') && segment !== 'api' && segment !== 'v1',
  );
  return method.toLowerCase() + words.map(pascal).join('');
}

export interface OperationRef {
  method: string;
  path: string;
}

/**
 * One unique operationId per operation. Where two operations serve the same call, the one SPEC names
 * (its method, at the path that holds the call name) keeps the bare name; another method gets
 * `Via<Method>` (`markSellerFreeViaPut`), another path `At<Group>` (`getContactHistoryAtContacts`).
 */
export function assignOperationIds(operations: readonly OperationRef[]): Map<OperationRef, string> {
  const byName = new Map<string, OperationRef[]>();
  for (const operation of operations) {
    const name = callNameOf(operation.method, operation.path);
    byName.set(name, [...(byName.get(name) ?? []), operation]);
  }
  const ids = new Map<OperationRef, string>();
  const taken = new Set<string>();
  const rank = (name: string, operation: OperationRef) =>
    (SPEC_CALLS[name] === operation.method ? 0 : 2) + (operation.path.includes(`/${name}`) ? 0 : 1);
  for (const [name, group] of byName) {
    const ordered = [...group].sort(
      (a, b) =>
        rank(name, a) - rank(name, b) || `${a.method} ${a.path}`.localeCompare(`${b.method} ${b.path}`),
    );
    const [first, ...others] = ordered;
    if (first) {
      ids.set(first, name);
      taken.add(name);
    }
    for (const operation of others) {
      const sameMethod = group.some((other) => other !== operation && other.method === operation.method);
      const group2 = operation.path.split('/').filter(Boolean)[2] ?? 'root';
      let id = sameMethod
        ? `${name}At${pascal(group2)}`
        : `${name}Via${pascal(operation.method.toLowerCase())}`;
      // A name still taken (an unusual pair of routes) gets its path as well: ids must stay unique.
      if (taken.has(id)) id = `${id}${pascal(operation.path)}`;
      ids.set(operation, id);
      taken.add(id);
    }
  }
  return ids;
}
