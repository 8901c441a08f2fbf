// The header's icon buttons (the bell, the phone): a ghost button whose dots float over its corners, a
// tooltip that says what the dots mean, and the same text read to screen readers as its description.
import { IconButton, Portal, Tooltip, VisuallyHidden } from '@chakra-ui/react';
import { type ComponentProps, type ReactNode, useId } from 'react';

type HeaderIconButtonProps = Omit<ComponentProps<typeof IconButton>, 'children'> & {
  'aria-label': string;
  /** What the button's dots say, read as the button's description. */
  description: string;
  tooltip: ReactNode;
  /** The icon and the dots floating over it. */
  children: ReactNode;
};

export function HeaderIconButton({ description, tooltip, children, ...button }: HeaderIconButtonProps) {
  const describedBy = useId();
  return (
    <Tooltip.Root openDelay={400} positioning={{ placement: 'bottom' }}>
      <Tooltip.Trigger asChild>
        <IconButton
          aria-describedby={describedBy}
          variant="ghost"
          size="sm"
          position="relative"
          overflow="visible"
          {...button}
        >
          {children}
          <VisuallyHidden id={describedBy}>{description}</VisuallyHidden>
        </IconButton>
      </Tooltip.Trigger>
      <Portal>
        <Tooltip.Positioner>
          <Tooltip.Content>{tooltip}</Tooltip.Content>
        </Tooltip.Positioner>
      </Portal>
    </Tooltip.Root>
  );
}
