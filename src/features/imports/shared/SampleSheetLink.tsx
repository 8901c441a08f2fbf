import { Button } from '@chakra-ui/react';
import { FileSpreadsheet } from 'lucide-react';
import { useState } from 'react';
import { SAMPLE_SHEET_PATH } from '../../../../contracts/imports';
import { downloadWithToken } from '../../../services/downloads';
import { getErrorMessage } from '../../../services/http';
import { notify } from '../../../ui/notify';

/** "Download a sample sheet": the columns the import reads, with example rows, to start from. */
export function SampleSheetLink() {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="plain"
      colorPalette="brand"
      size="sm"
      px="0"
      loading={busy}
      onClick={async () => {
        setBusy(true);
        try {
          await downloadWithToken(SAMPLE_SHEET_PATH, 'sample-catalogue.csv');
        } catch (error) {
          notify({
            type: 'error',
            title: 'Could not download the sample sheet',
            description: getErrorMessage(error),
          });
        } finally {
          setBusy(false);
        }
      }}
    >
      <FileSpreadsheet /> Download a sample sheet
    </Button>
  );
}
