import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { permissionOn, viewerOf } from './route-viewer';

const requestOf = (user: { id: string; sellerId: string | null; role: string }) =>
  ({ user }) as unknown as FastifyRequest;

describe('viewerOf', () => {
  it('limits a seller to their own shop', () => {
    expect(viewerOf(requestOf({ id: 'u1', sellerId: 's1', role: 'Seller' }))).toEqual({
      userId: 'u1',
      sellerId: 's1',
      isSeller: true,
    });
  });

  it('lets admins and staff see every shop', () => {
    expect(viewerOf(requestOf({ id: 'u2', sellerId: null, role: 'Admin' })).isSeller).toBe(false);
    expect(viewerOf(requestOf({ id: 'u3', sellerId: null, role: 'Staff' })).isSeller).toBe(false);
  });
});

describe('permissionOn', () => {
  it('declares the route and the action a handler needs', () => {
    const permission = permissionOn('/customers/offer-requests');
    expect(permission('approve')).toEqual({
      permission: { route: '/customers/offer-requests', action: 'approve' },
    });
  });
});
