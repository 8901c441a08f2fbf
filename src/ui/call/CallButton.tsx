// The header's phone button (SPEC §2): opens the call dialog; a dot and its tooltip tell the voice
// device's state (SPEC §4 texts) at a glance.
import { Circle, Float, IconButton, Portal, Tooltip, VisuallyHidden } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { Phone } from 'lucide-react';
import { useId } from 'react';
import type { ActorRefFrom } from 'xstate';
import { selectDeviceStatusText, type VoiceDeviceMachine } from '../../machines/voice-device.machine';
import { deviceStatusColor } from './device-status';

export function CallButton({
  device,
  onClick,
}: {
  device: ActorRefFrom<VoiceDeviceMachine>;
  onClick: () => void;
}) {
  const state = useSelector(device, (snapshot) => snapshot.value as string);
  const text = useSelector(device, selectDeviceStatusText);
  return <PhoneButton state={state} text={text} onClick={onClick} />;
}

/**
 * The button itself, from the device's state and text: the owner tab reads them from its actor, a tab
 * mirroring another tab's device (MirrorPhone) from the mirrored state.
 */
export function PhoneButton({ state, text, onClick }: { state: string; text: string; onClick: () => void }) {
  const describedBy = useId();
  return (
    <Tooltip.Root openDelay={400} positioning={{ placement: 'bottom' }}>
      <Tooltip.Trigger asChild>
        <IconButton
          aria-label="Phone"
          aria-describedby={describedBy}
          variant="ghost"
          size="sm"
          position="relative"
          overflow="visible"
          onClick={onClick}
          data-device={state}
        >
          <Phone />
          <Float placement="bottom-end" offsetX="2" offsetY="2">
            <Circle
              size="2"
              bg={deviceStatusColor(state)}
              outline="2px solid"
              outlineColor="bg.panel"
              data-testid="device-dot"
            />
          </Float>
          <VisuallyHidden id={describedBy}>{text}</VisuallyHidden>
        </IconButton>
      </Tooltip.Trigger>
      <Portal>
        <Tooltip.Positioner>
          <Tooltip.Content>{text}</Tooltip.Content>
        </Tooltip.Positioner>
      </Portal>
    </Tooltip.Root>
  );
}
