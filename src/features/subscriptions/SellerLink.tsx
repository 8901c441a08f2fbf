import { Link } from '@chakra-ui/react';

/** The seller's name as a link-styled button that opens the seller's subscription drawer. */
export function SellerLink({ name, onOpen }: { name: string; onOpen: () => void }) {
  return (
    <Link asChild fontWeight="medium" colorPalette="brand">
      <button type="button" onClick={onOpen}>
        {name}
      </button>
    </Link>
  );
}
