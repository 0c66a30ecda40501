// Draws the current time as a line in today's column while the page is open; marks the page as rendered.
(function(){var now=Date.now();document.querySelectorAll('.day').forEach(function(day){
var start=Number(day.dataset.start),minutes=Number(day.dataset.minutes);
var offset=(now-start)/60000;if(offset>=0&&offset<=minutes){var line=document.createElement('div');
line.className='now';line.style.top=(offset/minutes*100)+'%';day.appendChild(line);}});
document.documentElement.setAttribute('data-rendered','ok');})();
