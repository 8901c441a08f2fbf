import { Avatar, Breadcrumb, Flex, HStack, IconButton, Menu, Portal, Text } from '@chakra-ui/react';
import { Menu as MenuIcon, Moon, Sun } from 'lucide-react';
import { Fragment } from 'react';
import { Link as RouterLink, useLocation } from 'wouter';
import type { CurrentUser } from '../../../contracts/auth';
import { copyToClipboard } from '../../ui/clipboard';
import { TourButton } from '../../ui/tour/Tour';
import type { TourStep } from '../../ui/tour/tour-texts';
import type { Crumb } from './breadcrumbs';
import { HeaderNotifications } from './HeaderNotifications';
import { HeaderVideoCallButton } from './HeaderVideoCall';
import { HeaderCallButton } from './VoiceProvider';

interface HeaderProps {
  user: CurrentUser | undefined;
  crumbs: Crumb[];
  /** The guide of the page shown (empty: no "Page guide" button). */
  tour: readonly TourStep[];
  isDark: boolean;
  onToggleTheme: () => void;
  onSignOut: () => void;
  onOpenMenu: () => void;
}

export function Header({ user, crumbs, tour, isDark, onToggleTheme, onSignOut, onOpenMenu }: HeaderProps) {
  const [location] = useLocation();
  return (
    <Flex
      as="header"
      align="center"
      gap="3"
      px={{ base: '3', md: '6' }}
      h="14"
      borderBottomWidth="1px"
      bg="bg.panel"
    >
      <IconButton
        aria-label="Open menu"
        variant="ghost"
        size="sm"
        display={{ base: 'inline-flex', md: 'none' }}
        onClick={onOpenMenu}
      >
        <MenuIcon />
      </IconButton>
      <Breadcrumb.Root flex="1" minW="0" size="sm">
        <Breadcrumb.List>
          {crumbs.map((crumb, index) => {
            const last = index === crumbs.length - 1;
            // On a phone only the current page's crumb fits: the others would squeeze into broken words.
            const phoneHidden = last ? undefined : { base: 'none', md: 'flex' };
            return (
              // Crumbs are a path: position is their identity.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              <Fragment key={index}>
                {index > 0 ? <Breadcrumb.Separator display={{ base: 'none', md: 'flex' }} /> : null}
                <Breadcrumb.Item display={phoneHidden} minW="0">
                  {last ? (
                    <Breadcrumb.CurrentLink truncate>{crumb.name}</Breadcrumb.CurrentLink>
                  ) : crumb.href ? (
                    <Breadcrumb.Link asChild>
                      <RouterLink href={crumb.href}>{crumb.name}</RouterLink>
                    </Breadcrumb.Link>
                  ) : (
                    <Text color="fg.muted">{crumb.name}</Text>
                  )}
                </Breadcrumb.Item>
              </Fragment>
            );
          })}
        </Breadcrumb.List>
      </Breadcrumb.Root>
      <HStack gap="1">
        <TourButton path={location} steps={tour} variant="ghost" size="sm" />
        <HeaderCallButton />
        <HeaderVideoCallButton />
        <HeaderNotifications />
        <IconButton
          aria-label={isDark ? 'Switch to light theme' : 'Switch to dark theme'}
          variant="ghost"
          size="sm"
          onClick={onToggleTheme}
        >
          {isDark ? <Sun /> : <Moon />}
        </IconButton>
        <Menu.Root positioning={{ placement: 'bottom-end' }}>
          <Menu.Trigger asChild>
            <IconButton aria-label="Account menu" variant="ghost" rounded="full" size="sm">
              {/* Spans: a <button> may hold only phrasing content, and Avatar draws <div>s. A person
                  icon, not initials: text shown inside the button must be part of its name. */}
              <Avatar.Root as="span" size="xs" colorPalette="brand">
                <Avatar.Fallback as="span" />
                {user?.userAvatar ? <Avatar.Image src={user.userAvatar} /> : null}
              </Avatar.Root>
            </IconButton>
          </Menu.Trigger>
          <Portal>
            <Menu.Positioner>
              <Menu.Content minW="56">
                <Menu.ItemGroup>
                  <Menu.ItemGroupLabel>
                    <Text fontWeight="semibold" data-testid="user-name">
                      {user?.username}
                    </Text>
                    <Text fontSize="xs" color="fg.muted" fontWeight="normal">
                      {user?.email} · {user?.roles.join(', ')}
                    </Text>
                  </Menu.ItemGroupLabel>
                </Menu.ItemGroup>
                <Menu.Separator />
                {user?.seller ? (
                  <Menu.Item value="copy-code" onClick={() => copyToClipboard(user.seller?.sellerCode ?? '')}>
                    Copy seller code
                  </Menu.Item>
                ) : null}
                <Menu.Item value="copy-email" onClick={() => user && copyToClipboard(user.email)}>
                  Copy e-mail
                </Menu.Item>
                <Menu.Item value="sign-out" onClick={onSignOut}>
                  Sign out
                </Menu.Item>
              </Menu.Content>
            </Menu.Positioner>
          </Portal>
        </Menu.Root>
      </HStack>
    </Flex>
  );
}
