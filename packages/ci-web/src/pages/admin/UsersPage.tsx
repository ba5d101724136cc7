// Administration of users: the list (paged), creating a local user, and changing a user's role (the server
// refuses to demote the last administrator and says so).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type Answer, apiGet, apiPost, apiPut } from '../../api/client';
import { asUser, type Role, type User } from '../../api/types';
import { RoleSelect } from '../../components/RoleSelect';
import { ErrorNote, InlineForm, Loading, Notice, PageHeader, Pager, Time } from '../../components/ui';
import { useSession } from '../../lib/session';

/** A page of users, each read as a `User` (its role narrowed). */
type UserPage = Omit<Answer<'/api/v1/admin/users'>, 'users'> & { users: User[] };
const LIMIT = 50;

export function UsersPage() {
  const client = useQueryClient();
  const { user: me } = useSession();
  const [offset, setOffset] = useState(0);
  const users = useQuery({
    queryKey: ['admin-users', offset],
    queryFn: async (): Promise<UserPage> => {
      const page = await apiGet('/api/v1/admin/users', { query: { limit: LIMIT, offset } });
      return { ...page, users: page.users.map(asUser) };
    },
    placeholderData: keepPreviousData,
  });
  const setRole = useMutation({
    mutationFn: (v: { id: string; role: Role }) =>
      apiPut('/api/v1/admin/users/{id}/role', { role: v.role }, { params: { id: v.id } }),
    // Show the new role at once; a refusal (the last administrator) is undone by the reload below.
    onMutate: (v) =>
      client.setQueryData<UserPage>(['admin-users', offset], (old) =>
        old ? { ...old, users: old.users.map((u) => (u.id === v.id ? { ...u, role: v.role } : u)) } : old,
      ),
    onSettled: () => client.invalidateQueries({ queryKey: ['admin-users'] }),
  });
  const d = users.data;
  return (
    <>
      <PageHeader title="Users" sub="Local and single-sign-on users and their roles." />
      <CreateUser />
      {users.isLoading && <Loading />}
      <ErrorNote error={users.error ?? setRole.error} />
      {d && (
        <>
          <table className="table" aria-label="Users">
            <thead>
              <tr>
                <th>Username</th>
                <th>Email</th>
                <th>Role</th>
                <th>Created</th>
              </tr>
            </thead>
            <tbody>
              {d.users.map((u) => (
                <tr key={u.id}>
                  <td className="strong">
                    {u.username}
                    {u.id === me.id && <span className="muted small"> (you)</span>}
                  </td>
                  <td>{u.email ?? <span className="muted">—</span>}</td>
                  <td>
                    <RoleSelect
                      aria-label={`Role of ${u.username}`}
                      value={u.role}
                      disabled={setRole.isPending}
                      onChange={(role) => setRole.mutate({ id: u.id, role })}
                    />
                  </td>
                  <td>
                    <Time at={u.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager total={d.total} limit={d.limit} offset={d.offset} onChange={setOffset} />
        </>
      )}
    </>
  );
}

function CreateUser() {
  const client = useQueryClient();
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const create = useMutation({
    mutationFn: () =>
      apiPost('/api/v1/admin/users', {
        username: username.trim(),
        password,
        role,
        ...(email.trim() ? { email: email.trim() } : {}),
      }),
    onSuccess: () => {
      setUsername('');
      setEmail('');
      setPassword('');
      client.invalidateQueries({ queryKey: ['admin-users'] });
    },
  });
  return (
    <section className="panel" aria-labelledby="new-user-title">
      <h2 id="new-user-title">New local user</h2>
      <InlineForm onSubmit={() => create.mutate()} label="New local user">
        <label className="inline">
          Username
          <input required value={username} onChange={(e) => setUsername(e.target.value)} />
        </label>
        <label className="inline">
          Email
          <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label className="inline">
          Initial password
          <input
            type="password"
            autoComplete="new-password"
            required
            minLength={12}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <RoleSelect label="Role" value={role} onChange={setRole} />
        <button type="submit" className="primary" disabled={create.isPending}>
          Create user
        </button>
      </InlineForm>
      <ErrorNote error={create.error} />
      {create.isSuccess && <Notice kind="success">User {create.data.username} created.</Notice>}
    </section>
  );
}
