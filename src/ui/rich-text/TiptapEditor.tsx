// The rich-text editor's drawing: tiptap with its starter kit (paragraphs, headings, bold, italic,
// lists, links off). Loaded lazily by RichTextEditor: tiptap and ProseMirror are their own chunk,
// fetched by the first form that edits rich text. The server sanitises whatever HTML arrives anyway.
import { Box, Button, HStack, IconButton, Menu, Portal } from '@chakra-ui/react';
import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Bold, Braces, Heading2, Italic, List, ListOrdered } from 'lucide-react';
import { useEffect } from 'react';

export interface TiptapEditorProps {
  value: string;
  onChange: (html: string) => void;
  label: string;
  disabled?: boolean;
  /**
   * A menu at the end of the toolbar that types one of its items' text at the cursor (mail templates:
   * "Insert variable" with `{{firstName}}`, …).
   */
  insertMenu?: { label: string; items: readonly { text: string; label: string }[] };
}

export default function TiptapEditor({
  value,
  onChange,
  label,
  disabled = false,
  insertMenu,
}: TiptapEditorProps) {
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: false, code: false, codeBlock: false, horizontalRule: false })],
    content: value,
    editable: !disabled,
    immediatelyRender: true,
    editorProps: { attributes: { 'aria-label': label, role: 'textbox', 'aria-multiline': 'true' } },
    // An empty document is '' rather than '<p></p>', so "empty" means empty.
    onUpdate: ({ editor: current }) => onChange(current.isEmpty ? '' : current.getHTML()),
  });
  const active = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      bold: current?.isActive('bold') ?? false,
      italic: current?.isActive('italic') ?? false,
      heading: current?.isActive('heading', { level: 2 }) ?? false,
      bullets: current?.isActive('bulletList') ?? false,
      numbers: current?.isActive('orderedList') ?? false,
    }),
  });
  // A value replaced from outside (a reset, a reload) shows; the editor's own edits do not loop back.
  useEffect(() => {
    // A destroyed editor (StrictMode runs effects twice in development) has no schema left to read.
    if (editor && !editor.isDestroyed && value !== (editor.isEmpty ? '' : editor.getHTML())) {
      editor.commands.setContent(value, { emitUpdate: false });
    }
  }, [editor, value]);
  const tool = (name: string, on: boolean, run: () => void, icon: React.ReactNode) => (
    <IconButton
      size="xs"
      variant={on ? 'subtle' : 'ghost'}
      aria-label={name}
      aria-pressed={on}
      title={name}
      disabled={disabled}
      onMouseDown={(event) => event.preventDefault()}
      onClick={run}
    >
      {icon}
    </IconButton>
  );
  return (
    <Box borderWidth="1px" rounded="md" _focusWithin={{ borderColor: 'brand.solid' }}>
      <HStack gap="1" borderBottomWidth="1px" px="1" py="1" role="toolbar" aria-label={`${label} formatting`}>
        {tool('Bold', active?.bold ?? false, () => editor?.chain().focus().toggleBold().run(), <Bold />)}
        {tool(
          'Italic',
          active?.italic ?? false,
          () => editor?.chain().focus().toggleItalic().run(),
          <Italic />,
        )}
        {tool(
          'Heading',
          active?.heading ?? false,
          () => editor?.chain().focus().toggleHeading({ level: 2 }).run(),
          <Heading2 />,
        )}
        {tool(
          'Bulleted list',
          active?.bullets ?? false,
          () => editor?.chain().focus().toggleBulletList().run(),
          <List />,
        )}
        {tool(
          'Numbered list',
          active?.numbers ?? false,
          () => editor?.chain().focus().toggleOrderedList().run(),
          <ListOrdered />,
        )}
        {insertMenu ? (
          <Menu.Root
            positioning={{ placement: 'bottom-end' }}
            onSelect={(details) => editor?.chain().focus().insertContent(details.value).run()}
          >
            <Menu.Trigger asChild>
              <Button size="xs" variant="ghost" ms="auto" disabled={disabled}>
                <Braces /> {insertMenu.label}
              </Button>
            </Menu.Trigger>
            <Portal>
              <Menu.Positioner>
                <Menu.Content>
                  {insertMenu.items.map((item) => (
                    <Menu.Item key={item.text} value={item.text}>
                      {item.label}
                    </Menu.Item>
                  ))}
                </Menu.Content>
              </Menu.Positioner>
            </Portal>
          </Menu.Root>
        ) : null}
      </HStack>
      <Box
        px="3"
        py="2"
        minH="28"
        css={{
          '& .tiptap': { outline: 'none', minHeight: '6rem' },
          '& .tiptap ul, & .tiptap ol': { paddingInlineStart: '1.25rem' },
          '& .tiptap ul': { listStyle: 'disc' },
          '& .tiptap ol': { listStyle: 'decimal' },
          '& .tiptap h2': { fontWeight: 'semibold', fontSize: 'lg' },
        }}
      >
        <EditorContent editor={editor} />
      </Box>
    </Box>
  );
}
