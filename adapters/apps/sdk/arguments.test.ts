import * as v from 'valibot';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  boolean,
  code,
  describeArguments,
  dropdown,
  dynamicDropdown,
  dynamicMultiSelect,
  type InferParameters,
  json,
  type KeyValue,
  keyValueList,
  number,
  parametersSchema,
  text,
} from './arguments.js';
import { httpUrl } from './checks.js';
import { validate } from './validation.js';

const args = {
  name: text({ label: 'Name', required: true, acceptsVariables: true }),
  nickname: text({ label: 'Nickname' }),
  port: number({ label: 'Port', required: true, default: 5432, integer: true, min: 1, max: 65535 }),
  ratio: number({ label: 'Ratio' }),
  enabled: boolean({ label: 'Enabled', default: false }),
  method: dropdown({
    label: 'Method',
    required: true,
    options: [
      { label: 'GET', value: 'GET' },
      { label: 'POST', value: 'POST' },
    ],
  }),
  repo: dynamicDropdown({ label: 'Repository', dynamicData: 'listRepos', dependsOn: ['owner'] }),
  headers: keyValueList({ label: 'Headers' }),
  script: code({ label: 'Script', language: 'javascript' }),
  payload: json({ label: 'Payload' }),
  list: json({ label: 'List', schema: v.array(v.string('must hold texts only.'), 'must be a list.') }),
  site: text({ label: 'Site', check: httpUrl }),
};

const schema = parametersSchema(args);

describe('argument builders', () => {
  it('infer the parameter types run(ctx) receives', () => {
    type P = InferParameters<typeof args>;
    expectTypeOf<P['name']>().toEqualTypeOf<string>();
    expectTypeOf<P['nickname']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<P['port']>().toEqualTypeOf<number>();
    expectTypeOf<P['ratio']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<P['enabled']>().toEqualTypeOf<boolean>();
    expectTypeOf<P['method']>().toEqualTypeOf<'GET' | 'POST'>();
    expectTypeOf<P['repo']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<P['headers']>().toEqualTypeOf<KeyValue[] | undefined>();
    expectTypeOf<P['payload']>().toEqualTypeOf<unknown>();
    expectTypeOf<P['list']>().toEqualTypeOf<string[] | undefined>();
    expectTypeOf<v.InferOutput<typeof schema>>().toEqualTypeOf<P>();
  });

  it('validate, coerce form text and apply defaults', () => {
    const parsed = validate(schema, {
      name: 'Ada',
      nickname: '',
      port: '6543',
      ratio: 0.5,
      enabled: 'true',
      method: 'POST',
      repo: 'a/b',
      headers: [
        { key: 'x-one', value: 1 },
        { key: '', value: '' },
      ],
      payload: '{"a":[1,2]}',
      list: ['x'],
      extra: 'dropped',
    });
    expect(parsed).toEqual({
      ok: true,
      value: {
        name: 'Ada',
        nickname: undefined,
        port: 6543,
        ratio: 0.5,
        enabled: true,
        method: 'POST',
        repo: 'a/b',
        headers: [{ key: 'x-one', value: '1' }],
        script: undefined,
        payload: { a: [1, 2] },
        list: ['x'],
        site: undefined,
      },
    });
  });

  it('apply defaults to missing values', () => {
    const parsed = validate(schema, { name: 'Ada', method: 'GET' });
    expect(parsed.ok && parsed.value).toMatchObject({ port: 5432, enabled: false });
  });

  it('report one message per field, keyed by the argument', () => {
    const parsed = validate(schema, {
      name: '',
      port: 'abc',
      ratio: {},
      enabled: 'yes',
      method: 'DELETE',
      headers: [{ key: '', value: 'orphan' }],
      payload: '{oops',
      list: [1],
      site: 'ftp://x',
    });
    expect(parsed).toEqual({
      ok: false,
      fields: {
        name: ['is required.'],
        port: ['must be a number.'],
        ratio: ['must be a number.'],
        enabled: ['must be true or false.'],
        method: ['must be one of: GET, POST.'],
        headers: ['has a value without a key.'],
        payload: ['must be valid JSON.'],
        list: ['must hold texts only.'],
        site: ['must be an http or https URL.'],
      },
    });
  });

  it('check number bounds and whole numbers', () => {
    expect(validate(schema, { name: 'a', method: 'GET', port: 0 })).toMatchObject({
      fields: { port: ['must be at least 1.'] },
    });
    expect(validate(schema, { name: 'a', method: 'GET', port: 70000 })).toMatchObject({
      fields: { port: ['must be at most 65535.'] },
    });
    expect(validate(schema, { name: 'a', method: 'GET', port: 1.5 })).toMatchObject({
      fields: { port: ['must be a whole number.'] },
    });
  });

  it('refuse what is not an object', () => {
    expect(validate(schema, 'text')).toEqual({ ok: false, fields: { general: ['must be an object.'] } });
  });

  it('say "must be a string." for values that are not text', () => {
    expect(validate(parametersSchema({ s: text({ label: 'S' }) }), { s: { a: 1 } })).toEqual({
      ok: false,
      fields: { s: ['must be a string.'] },
    });
  });

  it('treat an empty required list as missing', () => {
    const list = parametersSchema({ values: keyValueList({ label: 'Values', required: true }) });
    expect(validate(list, { values: [{ key: '', value: '' }] })).toEqual({
      ok: false,
      fields: { values: ['is required.'] },
    });
  });

  it("take a multi-select's values as a list, or as Automatisch's rows when it names their key", () => {
    const plain = parametersSchema({ ids: dynamicMultiSelect({ label: 'Ids', dynamicData: 'listIds' }) });
    const rows = parametersSchema({
      ids: dynamicMultiSelect({ label: 'Ids', dynamicData: 'listIds', rowKey: 'memberId' }),
    });
    expect(validate(plain, { ids: ['a', 2, 'a'] })).toEqual({ ok: true, value: { ids: ['a', '2'] } });
    expect(validate(plain, { ids: [{ memberId: 'a' }] })).toEqual({
      ok: false,
      fields: { ids: ['must be a list of options.'] },
    });
    expect(validate(rows, { ids: [{ memberId: 'a' }, { memberId: '' }, 'b', { memberId: 3 }] })).toEqual({
      ok: true,
      value: { ids: ['a', 'b', '3'] },
    });
    expect(validate(rows, { ids: [{ other: 'a' }] })).toEqual({ ok: true, value: { ids: [] } });
    expect(validate(rows, { ids: [{ memberId: {} }] })).toEqual({
      ok: false,
      fields: { ids: ['must be a list of options.'] },
    });
  });

  it('describe themselves as plain JSON, in declaration order', () => {
    const described = describeArguments(args);
    expect(described.map((a) => a.key)).toEqual(Object.keys(args));
    expect(described[0]).toEqual({
      key: 'name',
      label: 'Name',
      type: 'string',
      required: true,
      acceptsVariables: true,
    });
    expect(described.find((a) => a.key === 'port')).toMatchObject({ type: 'number', defaultValue: 5432 });
    expect(described.find((a) => a.key === 'method')).toMatchObject({
      type: 'dropdown',
      options: [
        { label: 'GET', value: 'GET' },
        { label: 'POST', value: 'POST' },
      ],
    });
    expect(described.find((a) => a.key === 'repo')).toMatchObject({
      type: 'dropdown',
      dynamicData: { key: 'listRepos', dependsOn: ['owner'] },
    });
    expect(described.find((a) => a.key === 'script')).toMatchObject({ type: 'code', language: 'javascript' });
    expect(JSON.parse(JSON.stringify(described))).toStrictEqual(described);
  });
});
