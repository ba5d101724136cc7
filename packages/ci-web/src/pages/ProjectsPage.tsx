// The projects the user may see, with a link to each project and (for maintainers) to applying a bundle.
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../api/client';
import { Empty, ErrorNote, Loading, PageHeader, Time } from '../components/ui';
import { Link } from '../lib/router';
import { useSession } from '../lib/session';

export function ProjectsPage() {
  const { can } = useSession();
  const projects = useQuery({
    queryKey: ['projects'],
    queryFn: () => apiGet('/api/v1/projects'),
  });
  const list = projects.data?.projects ?? [];
  return (
    <>
      <PageHeader
        title="Projects"
        sub="Each project is declared by a bundle of pipeline YAML."
        actions={
          can('maintainer') && (
            <Link href="/apply" className="button primary">
              Apply bundle
            </Link>
          )
        }
      />
      {projects.isLoading && <Loading />}
      <ErrorNote error={projects.error} />
      {projects.data && list.length === 0 && (
        <Empty>
          No projects yet.{' '}
          {can('maintainer') ? <Link href="/apply">Apply a bundle</Link> : 'A maintainer can apply a bundle.'}
        </Empty>
      )}
      {list.length > 0 && (
        <table className="table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Slug</th>
              <th>Description</th>
              <th>Updated</th>
            </tr>
          </thead>
          <tbody>
            {list.map((p) => (
              <tr key={p.slug}>
                <td>
                  <Link href={`/projects/${encodeURIComponent(p.slug)}`}>{p.name}</Link>
                </td>
                <td className="mono">{p.slug}</td>
                <td className="muted">{p.description ?? ''}</td>
                <td>
                  <Time at={p.updated_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
