import { Box, Flex, HStack } from '@chakra-ui/react';
import type { ComponentProps, ReactNode } from 'react';
import { PageSizeSelect } from './list-controls';
import { SavedViewsMenu, type SavedViewsMenuProps } from './saved-views';
import { SearchBox } from './search-box';

/**
 * The row above a server-paged list: the search box, the page's own controls (`children`: a filters
 * button…), the saved views, and at the end the page's end controls (`end`: a column chooser…) and the
 * page size. Every list words and places them alike.
 */
export function ListToolbar<Size extends number>({
  search,
  views,
  viewsTour = 'saved-views',
  sizes,
  size,
  onSize,
  end,
  children,
}: {
  search: ComponentProps<typeof SearchBox>;
  views: SavedViewsMenuProps;
  viewsTour?: string;
  sizes: readonly Size[];
  size: Size;
  onSize: (size: Size) => void;
  end?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <Flex gap="3" mb="3" wrap="wrap" align="center">
      <SearchBox {...search} />
      {children}
      <Box data-tour={viewsTour}>
        <SavedViewsMenu {...views} />
      </Box>
      <HStack gap="2" ms="auto">
        {end}
        <PageSizeSelect sizes={sizes} value={size} width="24" onChange={onSize} />
      </HStack>
    </Flex>
  );
}
