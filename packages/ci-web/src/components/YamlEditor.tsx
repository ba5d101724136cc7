// A plain-textarea YAML editor with a line-number gutter (kept scrolled with the text), Tab inserting two
// spaces, and a handle to put the caret at a line and column (used to jump to a reported problem).
import { forwardRef, type KeyboardEvent, useImperativeHandle, useMemo, useRef } from 'react';
import { offsetOf } from '../lib/bundle-errors';

export interface YamlEditorHandle {
  goTo(line: number, column: number): void;
}

interface Props {
  value: string;
  onChange: (value: string) => void;
  label: string;
  /** Lines to mark as having a problem. */
  marked?: Set<number>;
}

const LINE_HEIGHT_PX = 20;

export const YamlEditor = forwardRef<YamlEditorHandle, Props>(function YamlEditor(props, ref) {
  const area = useRef<HTMLTextAreaElement>(null);
  const gutter = useRef<HTMLDivElement>(null);
  const lines = useMemo(() => Math.max(1, props.value.split('\n').length), [props.value]);

  useImperativeHandle(ref, () => ({
    goTo(line, column) {
      const el = area.current;
      if (!el) return;
      const at = offsetOf(el.value, line, column);
      el.focus();
      el.setSelectionRange(at, at);
      el.scrollTop = Math.max(0, (line - 4) * LINE_HEIGHT_PX);
    },
  }));

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key !== 'Tab' || e.shiftKey || e.ctrlKey || e.metaKey || e.altKey) return;
    e.preventDefault();
    const el = e.currentTarget;
    const { selectionStart: s, selectionEnd: t, value } = el;
    props.onChange(`${value.slice(0, s)}  ${value.slice(t)}`);
    requestAnimationFrame(() => el.setSelectionRange(s + 2, s + 2));
  };

  return (
    <div className="editor">
      <div className="gutter" ref={gutter} aria-hidden="true">
        {Array.from({ length: lines }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: line numbers are their own identity
          <div key={i} className={props.marked?.has(i + 1) ? 'marked' : undefined}>
            {i + 1}
          </div>
        ))}
      </div>
      <textarea
        ref={area}
        aria-label={props.label}
        spellCheck={false}
        autoCapitalize="off"
        autoCorrect="off"
        wrap="off"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        onKeyDown={onKeyDown}
        onScroll={(e) => {
          if (gutter.current) gutter.current.scrollTop = e.currentTarget.scrollTop;
        }}
      />
    </div>
  );
});
