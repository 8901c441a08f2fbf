// The header's phone button (SPEC §2): opens the call dialog; a dot and its tooltip tell the voice
// device's state (SPEC §4 texts) at a glance.
import { Circle, Float } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { Phone } from 'lucide-react';
import type { ActorRefFrom } from 'xstate';
import { selectDeviceStatusText, type VoiceDeviceMachine } from '../../machines/voice-device.machine';
import { HeaderIconButton } from '../header-icon-button';
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
  return (
    <HeaderIconButton
      aria-label="Phone"
      description={text}
      tooltip={text}
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
    </HeaderIconButton>
  );
}
