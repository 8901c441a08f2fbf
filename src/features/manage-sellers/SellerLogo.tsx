import { Avatar } from '@chakra-ui/react';

/** The seller's current logo (the last of sellerLogos), or their initials. */
export function SellerLogo({
  name,
  logo,
  size = 'sm',
}: {
  name: string;
  logo: string | null;
  size?: 'xs' | 'sm' | 'md' | 'lg' | 'xl';
}) {
  return (
    <Avatar.Root size={size} shape="rounded" colorPalette="brand" variant="subtle">
      <Avatar.Fallback name={name} />
      {logo ? <Avatar.Image src={logo} alt={`${name} logo`} /> : null}
    </Avatar.Root>
  );
}
