// A pipeline's status badge as a README shows it: the public SVG (GET …/pipelines/{name}/badge.svg, no
// sign-in needed, so it is the same image anonymous readers get), optionally for one branch, and the Markdown
// that embeds it, linked to the pipeline page, with a Copy button. Where the browser refuses the clipboard
// (a page not served over HTTPS or localhost) the snippet is selected for the reader to copy.
import { useRef, useState } from 'react';
import { enc } from '../api/client';
import { pipelineHref } from '../lib/links';

export function BadgeSnippet({ slug, name }: { slug: string; name: string }) {
  const [branch, setBranch] = useState('');
  const [copied, setCopied] = useState<'yes' | 'select' | null>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  const origin = window.location.origin;
  const path = `/api/v1/projects/${enc(slug)}/pipelines/${enc(name)}/badge.svg`;
  const b = branch.trim();
  const image = `${origin}${path}${b ? `?branch=${enc(b)}` : ''}`;
  const page = `${origin}${pipelineHref(slug, name)}`;
  const markdown = `[![${name}](${image})](${page})`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(markdown);
      setCopied('yes');
    } catch {
      field.current?.select();
      setCopied('select');
    }
  };
  return (
    <section className="panel" aria-labelledby="badge-title">
      <h2 id="badge-title">Status badge</h2>
      <p className="small muted">
        The latest run's status as an image anyone can load, without signing in — for a README.
      </p>
      <div className="stack">
        <div className="row wrap">
          <label className="inline">
            Branch
            <input
              value={branch}
              onChange={(e) => {
                setBranch(e.target.value);
                setCopied(null);
              }}
              placeholder="any branch"
              size={16}
            />
          </label>
          {/* The key makes the image load again when the branch changes. */}
          <img
            key={image}
            src={image}
            alt={`${name} status`}
            data-testid="pipeline-badge"
            height={20}
            className="badge-image"
          />
        </div>
        <label>
          Markdown
          <textarea
            ref={field}
            className="mono small"
            readOnly
            rows={2}
            value={markdown}
            onFocus={(e) => e.currentTarget.select()}
          />
        </label>
        <div className="row">
          <button type="button" onClick={copy}>
            Copy Markdown
          </button>
          <span className="small muted" role="status">
            {copied === 'yes' ? 'Copied.' : copied === 'select' ? 'Selected: press Ctrl+C to copy.' : ''}
          </span>
        </div>
      </div>
    </section>
  );
}
