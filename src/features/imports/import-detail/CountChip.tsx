import { Badge, Button } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { formatNumber } from '../../../../contracts/domain/format';

/** A filter chip with its row count: pressing it shows only those rows (the report's and preview's). */
export function CountChip({
  pressed,
  palette,
  count,
  testId,
  onPress,
  children,
}: {
  pressed: boolean;
  palette: string;
  count: number;
  testId: string;
  onPress: () => void;
  children: ReactNode;
}) {
  return (
    <Button
      size="sm"
      variant={pressed ? 'solid' : 'outline'}
      colorPalette={palette}
      aria-pressed={pressed}
      data-testid={testId}
      onClick={onPress}
    >
      {children}
      <Badge variant={pressed ? 'surface' : 'subtle'} fontVariantNumeric="tabular-nums">
        {formatNumber(count)}
      </Badge>
    </Button>
  );
}
