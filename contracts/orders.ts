// Orders (issue 31, docs/commerce.md). Money is integer minor units of the order's currency
// (contracts/domain/currency.ts moneyDigits), computed by the server.

export const ORDERS_ROUTE = '/orders/manage-orders';
export const CREATE_ORDER_ROUTE = '/orders/create-new-order';
export const ORDERS_API = '/api/v1/orders';
