import { describe, expect, it } from 'vitest';
import { dateTimeInputValue } from '../../../contracts/domain/format';
import { ApiError } from '../../services/api-error';
import {
  audienceOf,
  type CampaignForm,
  newCampaignForm,
  responseLabelsInput,
  responseOptionProblem,
  scheduleOf,
  serverCampaignErrors,
  validateCampaignForm,
  withoutAnswerLabel,
} from './campaign-form';

const TEMPLATE = '11111111-2222-4333-8444-555555555555';
const ready = (): CampaignForm => ({ ...newCampaignForm(), name: 'Spring', templateId: TEMPLATE });

describe('the campaign form', () => {
  it('asks for a name and a template', () => {
    expect(validateCampaignForm(newCampaignForm())).toEqual({
      name: 'Name the campaign',
      templateId: 'Choose a template',
    });
    expect(validateCampaignForm(ready())).toEqual({});
  });

  it('checks the rate and sends only the complete conditions of the audience', () => {
    const form = ready();
    form.ratePerSecond = 0;
    expect(validateCampaignForm(form).ratePerSecond).toBe('Send between 1 and 2,000 mails a second');
    form.query = {
      combinator: 'and',
      children: [
        { field: 'country', op: 'anyOf', value: ['IN'] },
        { field: 'companyType', op: 'anyOf' },
      ],
    };
    expect(audienceOf(form).query.children).toEqual([{ field: 'country', op: 'anyOf', value: ['IN'] }]);
  });

  it('takes up to five different answers of at most 40 characters', () => {
    expect(responseOptionProblem([], ' ')).toBe('Write the answer first');
    expect(responseOptionProblem(['Yes'], 'yes')).toBe('That answer is there already');
    expect(responseOptionProblem([], 'x'.repeat(41))).toBe('An answer must be at most 40 characters');
    expect(responseOptionProblem(['a', 'b', 'c', 'd', 'e'], 'f')).toBe('At most 5 answers');
    expect(responseOptionProblem(['Yes'], 'No')).toBeNull();
  });

  it('puts the server’s refusals on the template and fallback fields', () => {
    const refusal = (code: string) => new ApiError({ status: 400, code, message: code, data: {} });
    expect(serverCampaignErrors(refusal('NO_TEMPLATE'))).toEqual({ templateId: 'NO_TEMPLATE' });
    expect(serverCampaignErrors(refusal('NO_FALLBACK_VERSION'))).toEqual({
      fallbackLanguage: 'NO_FALLBACK_VERSION',
    });
    expect(serverCampaignErrors(refusal('STALE_CAMPAIGN'))).toEqual({});
    expect(
      serverCampaignErrors(
        new ApiError({
          status: 400,
          code: 'V',
          message: 'm',
          data: { fields: { 'responseOptions.1': 'Too long' } },
        }),
      ),
    ).toEqual({ responseOptions: 'Too long' });
  });

  it('schedules only in the future', () => {
    const now = new Date(2030, 0, 1, 10, 0);
    expect(scheduleOf('', now)).toEqual({ problem: 'Choose when to send it' });
    expect(scheduleOf(dateTimeInputValue(new Date(2030, 0, 1, 9, 0)), now)).toEqual({
      problem: 'Choose a time at least a minute from now',
    });
    const later = new Date(2030, 0, 2, 8, 30);
    expect(scheduleOf(dateTimeInputValue(later), now)).toEqual({ at: later.toISOString() });
  });
});

describe('answer wordings per language', () => {
  it('sends a language only when a word is given, a blank keeping the answer; removal drops the word', () => {
    const form = {
      responseOptions: ['Yes', 'No', 'Later'],
      responseLabels: { FR: ['Oui', '', ''], DE: ['', '', ''] },
    };
    expect(responseLabelsInput(form)).toEqual({ FR: ['Oui', 'No', 'Later'] });
    expect(withoutAnswerLabel({ FR: ['Oui', 'Non', 'Plus tard'] }, 1)).toEqual({ FR: ['Oui', 'Plus tard'] });
  });
});
