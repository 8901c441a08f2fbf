// The settings sections' components, each loaded when its tab opens. A section appears on the page
// once it has a component here and the server lists it for the user (GET /api/v1/settings).
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import type { SettingsSection } from '../../../../contracts/settings';

export const sectionComponents: Partial<Record<SettingsSection, LazyExoticComponent<ComponentType>>> = {
  profile: lazy(() => import('./ProfileSection')),
  localization: lazy(() => import('./LocalizationSection')),
  communication: lazy(() => import('./CommunicationSection')),
  shipping: lazy(() => import('./ShippingSection')),
  company: lazy(() => import('./CompanySection')),
  website: lazy(() => import('./WebsiteSection')),
  content: lazy(() => import('./ContentSection')),
};
