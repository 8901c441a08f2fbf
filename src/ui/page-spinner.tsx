import { Center, Spinner } from '@chakra-ui/react';

/** What a page shows while its code or first data loads. */
export function PageSpinner() {
  return (
    <Center minH="50vh" aria-busy="true">
      <Spinner size="lg" color="brand.solid" />
    </Center>
  );
}
