/** The sample patients and the clinic's form templates, and the sample file's bytes. Plain data: server/seed/patients.ts loads it. */

// ---------------------------------------------------------------------------------------------------
// Patients

type Sex = 'male' | 'female' | 'other' | null;

/** [first name, last name, sex, preferred name] */
export const PATIENTS: [string, string, Sex, string?][] = [
  ['Oliver', 'Bennett', 'male'],
  ['Elizabeth', 'Chen', 'female', 'Liz'],
  ['Mohammed', 'Rahman', 'male'],
  ['Sophie', 'Williams', 'female'],
  ['James', "O'Connor", 'male', 'Jim'],
  ['Aisha', 'Begum', 'female'],
  ['Lucas', 'Fischer', 'male'],
  ['Charlotte', 'Davies', 'female', 'Lottie'],
  ['Kwame', 'Mensah', 'male'],
  ['Isabella', 'Rossi', 'female'],
  ['Alex', 'Morgan', 'other'],
  ['Hannah', 'Kowalski', 'female'],
  ['William', 'Thompson', 'male', 'Bill'],
  ['Mei', 'Tanaka', 'female'],
  ['George', 'Papadopoulos', 'male'],
  ['Niamh', 'Gallagher', 'female'],
  ['Rajesh', 'Patel', 'male', 'Raj'],
  ['Emily', 'Clarke', 'female'],
  ['Samuel', 'Adeyemi', 'male', 'Sam'],
  ['Zara', 'Hussain', 'female'],
  ['Jordan', 'Lee', null],
  ['Margaret', 'Evans', 'female', 'Maggie'],
  ['Luca', 'Bianchi', 'male'],
  ['Freya', 'Andersson', 'female'],
  ['Daniel', 'Nguyen', 'male'],
  ['Chloe', 'Martin', 'female'],
  ['Ibrahim', 'Yilmaz', 'male'],
  ['Grace', 'Murphy', 'female'],
  ['Robin', 'Schmidt', 'other'],
  ['Katherine', 'Wright', 'female', 'Kate'],
  ['Ethan', 'Walker', 'male'],
  ['Ana', 'Silva', null],
  ['Thomas', 'Hughes', 'male', 'Tom'],
  ['Yasmin', 'Ali', 'female'],
];

export const EMAIL_DOMAINS = ['example.com', 'example.org', 'example.net'];

export const FORM_TEMPLATES = [
  {
    name: 'New patient intake',
    description: 'Medical history and presenting complaint, completed before the first visit.',
    category: 'intake' as const,
    active: true,
    questions: [
      { key: 'complaint', label: 'What brings you in today?', type: 'textarea' as const, required: true },
      { key: 'onset', label: 'When did it start?', type: 'date' as const, required: false },
      { key: 'pain', label: 'Pain today (0-10)', type: 'scale' as const, required: true },
      { key: 'surgery', label: 'Any surgery in the last 12 months?', type: 'yes_no' as const, required: true },
    ],
  },
  {
    name: 'Treatment consent',
    description: null,
    category: 'consent' as const,
    active: true,
    questions: [
      { key: 'consent', label: 'I consent to assessment and treatment', type: 'yes_no' as const, required: true },
    ],
  },
  {
    name: 'Oswestry Disability Index',
    description: 'Low back pain outcome measure.',
    category: 'outcome_measure' as const,
    active: true,
    questions: [
      {
        key: 'pain_intensity',
        label: 'Pain intensity',
        type: 'choice' as const,
        required: true,
        options: ['None', 'Mild', 'Moderate', 'Severe'],
      },
      {
        key: 'walking',
        label: 'Walking',
        type: 'choice' as const,
        required: true,
        options: ['No limit', '1 mile', '1/2 mile', '100 yards'],
      },
    ],
  },
  {
    name: 'Old intake (retired)',
    description: 'Replaced by New patient intake.',
    category: 'intake' as const,
    active: false,
    questions: [],
  },
];

// A 1x1 PNG, so the sample files include an image whose type is sniffed from its bytes.
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
