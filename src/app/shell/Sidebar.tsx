import { Box, Link, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink, useLocation } from 'wouter';
import type { SidebarItem } from '../../../contracts/permissions';

function NavLink({
  item,
  active,
  onNavigate,
}: {
  item: SidebarItem;
  active: boolean;
  onNavigate?: () => void;
}) {
  return (
    <Link
      asChild
      display="block"
      px="3"
      py="2"
      rounded="md"
      fontSize="sm"
      fontWeight={active ? 'semibold' : 'normal'}
      bg={active ? 'brand.subtle' : undefined}
      color={active ? 'brand.fg' : 'fg'}
      _hover={{ bg: 'bg.muted', textDecoration: 'none' }}
      aria-current={active ? 'page' : undefined}
    >
      <RouterLink href={item.value} onClick={onNavigate}>
        {item.name}
      </RouterLink>
    </Link>
  );
}

/** The permission-driven menu (SPEC §1): exactly the items the server sent for this user. */
export function Sidebar({ menu, onNavigate }: { menu: SidebarItem[]; onNavigate?: () => void }) {
  const [location] = useLocation();
  return (
    <Box as="nav" aria-label="Main" p="3">
      <Stack gap="1">
        {menu.map((item) =>
          item.child.length ? (
            <Box key={item.value} mt="3">
              <Text
                px="3"
                pb="1"
                fontSize="xs"
                fontWeight="semibold"
                color="fg.muted"
                textTransform="uppercase"
                letterSpacing="wide"
              >
                {item.name}
              </Text>
              <Stack gap="1">
                {item.child.map((child) => (
                  <NavLink
                    key={child.value}
                    item={child}
                    active={location === child.value}
                    onNavigate={onNavigate}
                  />
                ))}
              </Stack>
            </Box>
          ) : (
            <NavLink key={item.value} item={item} active={location === item.value} onNavigate={onNavigate} />
          ),
        )}
      </Stack>
    </Box>
  );
}
