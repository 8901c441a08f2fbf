// Staff management (/staff/manage-staff): the staff list, inviting a staff member and switching their
// account on and off. Shared by the API and the admin page.
import { z } from 'zod';
import { emailSchema } from './auth';
import { intParam } from './int-param';

export const STAFF_PAGE_SIZE = 10;

export const staffStatusFilters = ['all', 'active', 'inactive'] as const;
export type StaffStatusFilter = (typeof staffStatusFilters)[number];

export const listStaffQuerySchema = z.object({
  /** Name or e-mail; case-insensitive, partial. */
  query: z.string().trim().max(100, 'Search must be at most 100 characters').optional(),
  status: z.enum(staffStatusFilters).default('all'),
  skip: intParam.max(10_000_000).default(0),
  limit: intParam.min(1).max(100).default(STAFF_PAGE_SIZE),
});
export type ListStaffQuery = z.input<typeof listStaffQuerySchema>;

export const staffMemberSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  /** SPEC §3: the full name, otherwise the part of the e-mail before the @. */
  username: z.string(),
  email: z.string(),
  phone: z.string(),
  isActive: z.boolean(),
  /** Invited and has not chosen a password yet. */
  invitePending: z.boolean(),
  createdAt: z.string(),
});
export type StaffMember = z.infer<typeof staffMemberSchema>;

export const staffListSchema = z.object({ rows: z.array(staffMemberSchema), count: z.number().int() });
export type StaffList = z.infer<typeof staffListSchema>;

const personName = (label: string, required: boolean) => {
  const base = z.string().trim().max(100, `${label} must be at most 100 characters`);
  return required ? base.min(1, `Enter the ${label.toLowerCase()}`) : base;
};

export const inviteStaffBodySchema = z.object({
  firstName: personName('First name', true),
  lastName: personName('Last name', false).default(''),
  email: emailSchema,
});
export type InviteStaffBody = z.input<typeof inviteStaffBodySchema>;

export const updateStaffStatusBodySchema = z.object({ isActive: z.boolean() });

export const staffMessageSchema = z.object({ message: z.string(), staff: staffMemberSchema });
export type StaffMessage = z.infer<typeof staffMessageSchema>;
