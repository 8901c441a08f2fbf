import { Input, InputGroup } from '@chakra-ui/react';
import { Search } from 'lucide-react';
import { useUrlSearchText } from './use-debounced-value';

/**
 * A list's search box: typing stays local and instant; `onSearch` (which puts the text in the URL and
 * so in the query) follows after a pause.
 */
export function SearchBox({
  value,
  onSearch,
  label,
  placeholder,
  'data-tour': tour,
  maxW = '96',
}: {
  value: string;
  onSearch: (text: string) => void;
  /** The box's accessible name ("Search sellers"). */
  label: string;
  placeholder: string;
  /** Its target, when a page guide points at it. */
  'data-tour'?: string;
  maxW?: string;
}) {
  const [text, setText] = useUrlSearchText(value, onSearch, 300);
  return (
    <InputGroup startElement={<Search size={16} />} maxW={{ base: 'full', md: maxW }} data-tour={tour}>
      <Input
        type="search"
        placeholder={placeholder}
        aria-label={label}
        maxLength={100}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
    </InputGroup>
  );
}
