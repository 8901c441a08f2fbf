import { Card } from '@chakra-ui/react';
import type { Seller } from '../../../contracts/sellers';
import { ImageUploadPanel } from '../../ui/image-upload-panel';
import { useUploadLogo } from './api';
import { SellerLogo } from './SellerLogo';

/** The current logo and a new one, with the real upload progress (axios onUploadProgress). */
export function SellerLogoPanel({ seller, canEdit }: { seller: Seller; canEdit: boolean }) {
  const upload = useUploadLogo();
  return (
    <Card.Root variant="outline">
      <Card.Body>
        <ImageUploadPanel
          image={<SellerLogo name={seller.sellerName} logo={seller.logo} size="xl" />}
          title="Logo"
          hint={`${seller.logo ? 'Shown wherever the seller appears.' : 'No logo yet.'} PNG, JPEG or WebP, up to 2 MB.`}
          canUpload={canEdit}
          buttonText="Upload logo"
          inputLabel="Logo file"
          inputTestId="logo-input"
          progressLabel="Logo upload progress"
          upload={(file, onProgress) => upload.mutateAsync({ sellerId: seller.id, file, onProgress })}
        />
      </Card.Body>
    </Card.Root>
  );
}
