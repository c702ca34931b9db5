module.exports = {
  darkMode: 'class',
  theme: {
    extend: {
      colors: {
        brand: { 50: '#eef6ff', 500: '#2563eb', 950: '#0b1b3f' },
        success: '#16a34a',
        warning: '#d97706',
        danger: '#dc2626',
      },
      fontSize: { body: ['1rem', '1.5rem'], caption: ['0.8125rem', '1.25rem'], display: ['3rem', '1.1'] },
    },
  },
};
